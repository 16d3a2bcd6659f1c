import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../lib/errors.ts';
import { numericParams, numericQueryRefusal } from '../plugins/numeric-query.ts';
import { validationCode, validationMessage, type SchemaError } from '../validation-message.ts';

/** The numeric members of each querystring schema, read once. */
const numericOf = new WeakMap<TSchema, ReturnType<typeof numericParams>>();

export type InputPart = 'querystring' | 'params' | 'body';

/**
 * A tool's arguments for one part of the HTTP request, checked by the validator the HTTP route
 * uses (Fastify's, compiled once per schema, defaults filled and types coerced as for a query
 * string) and refused with the 400 the route would answer (`limit must be an integer between 1 and 100`).
 */
export function checkToolInput<T>(request: FastifyRequest, schema: TSchema, part: InputPart, value: Record<string, unknown>): T {
  if (part === 'querystring') {
    let numeric = numericOf.get(schema);
    if (numeric === undefined) numericOf.set(schema, (numeric = numericParams(schema)));
    const refusal = numericQueryRefusal(value, numeric, true);
    if (refusal) throw refusal;
  }
  const validate = request.compileValidationSchema(schema, part);
  if (validate(value)) return value as T;
  const errs = (validate.errors ?? []) as SchemaError[];
  const routeSchema = { [part]: schema };
  throw errors.badRequest(validationMessage(errs, part, routeSchema), validationCode(errs, part, routeSchema));
}

/** The members of `args` that `schema` (an object schema) names, and the rest. */
export function splitArgs(args: Record<string, unknown>, schema: TSchema): [Record<string, unknown>, Record<string, unknown>] {
  const names = new Set(Object.keys((schema as { properties?: object }).properties ?? {}));
  const mine: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) (names.has(name) ? mine : rest)[name] = value;
  return [mine, rest];
}
