import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';

/**
 * The OpenAPI 3.1 document, built by @fastify/swagger from the same route schemas that validate
 * requests. Registered before the route plugins so it sees every route.
 */
export const openapiPlugin = fp<{ baseUrl: string; version: string }>(
  async (app, { baseUrl, version }) => {
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
        },
        security: [{ bearerKey: [] }, { headerKey: [] }, { queryKey: [] }],
      },
    });

    let document: unknown;
    app.get('/openapi.json', { schema: { summary: 'This OpenAPI 3.1 description', tags: ['meta'] } }, async () => {
      document ??= app.swagger();
      return document;
    });
  },
  { name: 'canmap-openapi' },
);
