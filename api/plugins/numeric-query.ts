import type { preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { errors, type Refusal } from '../../lib/errors.ts';
import { describeSchema, schemaErrorCode } from '../validation-message.ts';

type JsonSchema = Record<string, unknown>;
type NumericParam = { name: string; schema: JsonSchema; pattern: RegExp };

const PLAIN_INTEGER = /^-?\d+$/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** The integer and number members of a querystring schema. */
export function numericParams(querystring: unknown): NumericParam[] {
  const properties = (querystring as JsonSchema | undefined)?.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return [];
  return Object.entries(properties).flatMap(([name, schema]) => {
    if (schema.type === 'integer') return [{ name, schema, pattern: PLAIN_INTEGER }];
    if (schema.type === 'number') return [{ name, schema, pattern: PLAIN_NUMBER }];
    return [];
  });
}

/** A query value (or every value of a repeated parameter) is a plain decimal that fits a double. */
function plainDecimal(value: unknown, pattern: RegExp): boolean {
  const raws = Array.isArray(value) ? value : [value];
  return raws.every((raw) => typeof raw === 'string' && pattern.test(raw) && Number.isFinite(Number(raw)));
}

/**
 * The 400 for the first numeric parameter not written as a plain decimal; null when all are.
 * `numbersAsGiven`: JSON numbers pass (a tool call's arguments), only strings are read as written.
 */
export function numericQueryRefusal(query: Record<string, unknown> | undefined, params: NumericParam[], numbersAsGiven = false): Refusal | null {
  for (const { name, schema, pattern } of params) {
    const value = query?.[name];
    if (value === undefined || (numbersAsGiven && typeof value === 'number') || plainDecimal(value, pattern)) continue;
    return errors.badRequest(`${name} ${describeSchema(schema) ?? 'is invalid'}`, schemaErrorCode(schema));
  }
  return null;
}

function checkRawValues(params: NumericParam[]): preValidationHookHandler {
  return (request, _reply, done) => done(numericQueryRefusal(request.query as Record<string, unknown> | undefined, params) ?? undefined);
}

/**
 * Numeric query parameters must be written as plain decimals. AJV's type coercion would take
 * `0x10`, `1e1`, `50.0` or an empty value, and turns `1e999` into Infinity, which then passes
 * its range checks; so every route whose querystring schema has integer or number members gets
 * a preValidation check of the raw strings, answering the 400 the validator words
 * (`limit must be an integer between 1 and 100`).
 */
export const numericQueryPlugin = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const params = numericParams(route.schema?.querystring);
      if (params.length === 0) return;
      const existing = route.preValidation;
      const others = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
      route.preValidation = [checkRawValues(params), ...others];
    });
  },
  { name: 'canmap-numeric-query' },
);
