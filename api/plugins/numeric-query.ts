import type { preValidationHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../lib/errors.ts';
import { describeSchema, schemaErrorCode } from '../validation-message.ts';

type JsonSchema = Record<string, unknown>;
type NumericParam = { name: string; schema: JsonSchema; pattern: RegExp };

const PLAIN_INTEGER = /^-?\d+$/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

function numericParams(route: RouteOptions): NumericParam[] {
  const properties = (route.schema?.querystring as JsonSchema | undefined)?.properties as Record<string, JsonSchema> | undefined;
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

function checkRawValues(params: NumericParam[]): preValidationHookHandler {
  return (request, _reply, done) => {
    const query = request.query as Record<string, unknown> | undefined;
    for (const { name, schema, pattern } of params) {
      const value = query?.[name];
      if (value === undefined || plainDecimal(value, pattern)) continue;
      done(errors.badRequest(`${name} ${describeSchema(schema) ?? 'is invalid'}`, schemaErrorCode(schema)));
      return;
    }
    done();
  };
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
      const params = numericParams(route);
      if (params.length === 0) return;
      const existing = route.preValidation;
      const others = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
      route.preValidation = [checkRawValues(params), ...others];
    });
  },
  { name: 'canmap-numeric-query' },
);
