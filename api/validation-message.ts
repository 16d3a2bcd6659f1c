import type { FastifySchema } from 'fastify';
import { ERROR_CODE_KEYWORD, ERROR_MESSAGE_KEYWORD } from '../schemas/common.ts';

// ERROR_MESSAGE_KEYWORD (schemas/common.ts) on a parameter words its own 400, e.g.
// `Type.String({ pattern: '^\\d{8}$', [ERROR_MESSAGE_KEYWORD]: 'must be a date YYYYMMDD' })`
// answers `date must be a date YYYYMMDD`. Registered with AJV in api/app.ts.

export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

type JsonSchema = Record<string, unknown>;

const CONTEXT_SCHEMA: Record<string, keyof FastifySchema> = {
  querystring: 'querystring',
  params: 'params',
  headers: 'headers',
  body: 'body',
};

function pointerSegments(pointer: string): string[] {
  return pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function displayPath(segments: string[]): string {
  return segments.reduce((name, s) => (/^\d+$/.test(s) ? `${name}[${s}]` : name ? `${name}.${s}` : s), '');
}

function range(min: unknown, max: unknown, exclusiveMin: unknown, exclusiveMax: unknown): string {
  const low = typeof min === 'number' ? min : undefined;
  const high = typeof max === 'number' ? max : undefined;
  if (low !== undefined && high !== undefined) return ` between ${low} and ${high}`;
  if (low !== undefined) return ` of at least ${low}`;
  if (high !== undefined) return ` of at most ${high}`;
  if (typeof exclusiveMin === 'number') return ` greater than ${exclusiveMin}`;
  if (typeof exclusiveMax === 'number') return ` less than ${exclusiveMax}`;
  return '';
}

function literalValues(schema: JsonSchema): unknown[] | null {
  if (Array.isArray(schema.enum)) return schema.enum;
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!Array.isArray(options) || !options.every((o) => 'const' in o)) return null;
  return options.map((o) => o.const);
}

/** What a valid value of this schema looks like, phrased to follow the parameter's name. */
export function describeSchema(schema: JsonSchema): string | null {
  if (typeof schema[ERROR_MESSAGE_KEYWORD] === 'string') return schema[ERROR_MESSAGE_KEYWORD] as string;
  const literals = literalValues(schema);
  if (literals) return `must be one of ${literals.map(String).join(', ')}`;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return `must be ${schema.type === 'integer' ? 'an integer' : 'a number'}${range(schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum)}`;
    case 'boolean':
      return 'must be true or false';
    case 'string':
      if (schema.format) return `must be a valid ${String(schema.format)}`;
      if (schema.minLength === 1 && schema.maxLength === undefined && schema.pattern === undefined) return 'must not be empty';
      if (schema.pattern === undefined && (schema.minLength !== undefined || schema.maxLength !== undefined)) {
        return `must be a string of length${range(schema.minLength, schema.maxLength, undefined, undefined)}`;
      }
      return schema.pattern === undefined ? 'must be a string' : 'is malformed';
    default:
      return null;
  }
}

/**
 * The 400 message for a failed request validation: it names the parameter at fault and, where
 * the route's schema says it, what a valid value is (`radius must be an integer between 50 and 10000`).
 */
export function validationMessage(errs: SchemaError[], context: string | undefined, routeSchema: FastifySchema | undefined): string {
  const first = errs[0];
  const where = context ?? 'request';
  if (!first) return `${where} is invalid`;
  const segments = pointerSegments(first.instancePath);
  if (first.keyword === 'required') return `${displayPath([...segments, String(first.params.missingProperty)])} is required`;
  if (first.keyword === 'additionalProperties') {
    return `${displayPath([...segments, String(first.params.additionalProperty)])} is not allowed`;
  }
  const name = segments.length ? displayPath(segments) : where;
  const schema = schemaAt(contextSchema(context, routeSchema), segments);
  // Below the top level only a schema's own wording is used; AJV's message is clearer than a generic one there.
  const described = schema && (segments.length === 1 || typeof schema[ERROR_MESSAGE_KEYWORD] === 'string') ? describeSchema(schema) : null;
  return `${name} ${described ?? first.message ?? 'is invalid'}`;
}

/** The schema of the member at `segments` (object properties and array items), if the route's schema has one. */
function schemaAt(container: JsonSchema | undefined, segments: string[]): JsonSchema | undefined {
  let schema = container;
  for (const s of segments) {
    if (!schema) return undefined;
    schema = /^\d+$/.test(s) ? (schema.items as JsonSchema | undefined) : (schema.properties as Record<string, JsonSchema> | undefined)?.[s];
  }
  return segments.length ? schema : undefined;
}

/** The schema's own 400 code (ERROR_CODE_KEYWORD), if it declares one. */
export function schemaErrorCode(schema: unknown): string | undefined {
  const code = (schema as JsonSchema | undefined)?.[ERROR_CODE_KEYWORD];
  return typeof code === 'string' ? code : undefined;
}

/** The route schema of a validation context (querystring, body, ...). */
export function contextSchema(context: string | undefined, routeSchema: FastifySchema | undefined): JsonSchema | undefined {
  const key = context ? CONTEXT_SCHEMA[context] : undefined;
  return key ? (routeSchema?.[key] as JsonSchema | undefined) : undefined;
}

/**
 * The volume 1 code of a failed validation: the code of the deepest schema on the failing
 * member's path that declares one, else the container's (a body's invalid_body), else none.
 */
export function validationCode(errs: SchemaError[], context: string | undefined, routeSchema: FastifySchema | undefined): string | undefined {
  const first = errs[0];
  const container = contextSchema(context, routeSchema);
  let code = schemaErrorCode(container);
  if (!first) return code;
  const segments = pointerSegments(first.instancePath);
  if (first.keyword === 'required') segments.push(String(first.params.missingProperty));
  for (let depth = 1; depth <= segments.length; depth++) {
    const schema = schemaAt(container, segments.slice(0, depth));
    if (!schema) break;
    code = schemaErrorCode(schema) ?? code;
  }
  return code;
}
