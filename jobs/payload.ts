import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** The first reason the payload does not match its schema, readable by a person; null when it does. */
export function payloadProblem(schema: TSchema, payload: unknown): string | null {
  const first = Value.Errors(schema, payload).First();
  if (!first) return null;
  return `${first.path || '(payload)'}: ${first.message}`;
}
