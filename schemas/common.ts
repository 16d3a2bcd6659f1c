import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';

/**
 * Pieces every API schema shares: the error body of volume 1, the `{data, meta}` envelope, and
 * the helpers the domain schemas (`<domain>-api.ts`) build with.
 */

/** Schema keyword carrying the 400 wording of a parameter that fails validation (api/validation-message.ts reads it). */
export const ERROR_MESSAGE_KEYWORD = 'x-error-message';
/**
 * Schema keyword carrying the volume 1 `code` of a 400 (invalid_location, invalid_route_option, ...)
 * for a parameter, or for a whole body or query object (the default of its members).
 */
export const ERROR_CODE_KEYWORD = 'x-error-code';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A string with a fixed set of values: `enum`, not a union of consts, so the response serializer
 * writes it as a plain string instead of trying each branch.
 */
export const stringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** Volume 1 "Errors": `{error, code?}`, plus what 503 and addon_required add. */
export const ErrorBody = Type.Object({
  error: Type.String(),
  code: Type.Optional(Type.String()),
  retryable: Type.Optional(Type.Boolean()),
  capability: Type.Optional(Type.String({ description: 'addon_required: the capability needed' })),
  addon: Type.Optional(Type.String({ description: 'addon_required: the add-on that grants it' })),
  message: Type.Optional(Type.String({ description: 'addon_required: what to do' })),
  contract: Type.Optional(Type.Record(Type.String(), Type.String(), { description: '503 of a service not wired up: the query the endpoint expects' })),
});
export type ErrorBody = Static<typeof ErrorBody>;

/** The error answers a route documents in /openapi.json: the one error body, described per status. */
export function errorResponses(descriptions: Readonly<Record<number, string>>, ...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, { ...ErrorBody, description: descriptions[s] }]));
}

/** The `{data, meta}` envelope of data-plane answers. */
export const envelope = <D extends TSchema, M extends TObject>(data: D, meta: M) => Type.Object({ data, meta });
