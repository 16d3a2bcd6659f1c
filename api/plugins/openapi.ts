import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import type { HTTPMethods } from 'fastify';
import { componentSchemas } from '../openapi/components.ts';
import { transformDocument, transformRoute } from '../openapi/transform.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after this plugin (method and URL as registered), documented or not. */
    registeredRoutes: () => readonly { method: HTTPMethods; url: string }[];
  }
}

/**
 * The OpenAPI 3.1 document, built by @fastify/swagger from the same route schemas that validate
 * requests, then made a client contract by api/openapi/ (public alias paths, operationIds, query
 * parameters as a client sends them, shared components, real media types, examples).
 * Registered before the route plugins so it sees every route.
 */
export const openapiPlugin = fp<{ baseUrl: string; version: string }>(
  async (app, { baseUrl, version }) => {
    const registered: { method: HTTPMethods; url: string }[] = [];
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url });
    });
    app.decorate('registeredRoutes', () => registered);
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'canmap API',
          version,
          description: 'Read-only gateway of the canmap data releases. Every operation needs an API key in one of the three accepted forms.',
        },
        servers: [{ url: baseUrl }],
        components: {
          securitySchemes: {
            bearerKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY> (the normal form)' },
            headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
            queryKey: { type: 'apiKey', in: 'query', name: 'key', description: 'for clients that cannot set headers (map tiles)' },
          },
          schemas: componentSchemas() as never,
        },
        security: [{ bearerKey: [] }, { headerKey: [] }, { queryKey: [] }],
      },
      transform: transformRoute as never,
      transformObject: transformDocument as never,
    });

    let document: unknown;
    app.get('/openapi.json', { schema: { summary: 'This OpenAPI 3.1 description', tags: ['meta'] } }, async () => {
      document ??= app.swagger();
      return document;
    });
  },
  { name: 'canmap-openapi' },
);
