import type { FastifySchema, RouteOptions } from 'fastify';
import { referenceShared, referenceSharedResponses } from './components.ts';
import { DOCUMENTED_PATHS, documentedPath } from './documented-paths.ts';
import { documentedQuerystring } from './documented-query.ts';
import { addExamples } from './examples.ts';
import { fixMedia, MEDIA_FIXES } from './media.ts';
import { operationIdOf } from './operation-ids.ts';

type JsonSchema = Record<string, unknown>;
type Operation = JsonSchema & { responses: Record<string, JsonSchema> };
type OpenApiObject = { paths: Record<string, Record<string, Operation>> };

/**
 * @fastify/swagger's per-route transform: the public path of an alias route, the querystring as
 * a client sends it (documented-query.ts), shared objects as references to components
 * (components.ts) and a stable operationId. Route schemas themselves are never changed: they
 * still validate and serialize as before.
 */
export function transformRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) {
  if (!schema || schema.hide) return { schema, url };
  const path = documentedPath(url);
  const method = [route.method].flat()[0]!;
  const documented = {
    ...schema,
    operationId: schema.operationId ?? operationIdOf(method, path),
    querystring: documentedQuerystring(url, schema.querystring as JsonSchema | undefined),
    body: schema.body === undefined ? undefined : referenceShared(schema.body),
    response: referenceSharedResponses(schema.response as JsonSchema | undefined),
  };
  return { schema: documented as FastifySchema, url: DOCUMENTED_PATHS[url] ?? url };
}

/** Keywords only the server reads (400 wording, error codes): not part of what a client sends. */
const SERVER_ONLY = new Set(['x-error-message', 'x-error-code']);
/** Values that are data, not schemas: left as written. */
const DATA = new Set(['example', 'examples', 'default', 'const', 'enum']);

/**
 * The document in JSON Schema 2020-12, which OpenAPI 3.1 uses, and without server-only keywords:
 * TypeBox writes a tuple in the draft-07 form (`items` as an array, `additionalItems`), which
 * 2020-12 spells `prefixItems` and `items: false`.
 */
function forClients(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forClients);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).filter(([key]) => !SERVER_ONLY.has(key));
  const object = Object.fromEntries(entries.map(([key, v]) => [key, DATA.has(key) ? v : forClients(v)]));
  if (Array.isArray(object.items)) {
    const { items, additionalItems, ...rest } = object;
    return { ...rest, prefixItems: items, ...(additionalItems === false ? { items: false } : {}) };
  }
  return object;
}

/** The whole document, once built: the media types really sent, examples, 2020-12 tuples, no server-only keywords. */
export function transformDocument({ openapiObject }: { openapiObject: Partial<OpenApiObject> }): OpenApiObject {
  const doc = openapiObject as OpenApiObject;
  const byPath = new Map(Object.keys(MEDIA_FIXES).map((url) => [documentedPath(url), url]));
  for (const [path, operations] of Object.entries(doc.paths)) {
    const url = byPath.get(path);
    for (const operation of Object.values(operations)) {
      if (url) operation.responses = fixMedia(url, operation.responses);
      addExamples(operation);
    }
  }
  return forClients(doc) as OpenApiObject;
}
