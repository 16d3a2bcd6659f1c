import { Type } from '@sinclair/typebox';
import fp from 'fastify-plugin';
import '../fastify-types.ts';

const ProtectedResource = Type.Object({
  resource: Type.String(),
  bearer_methods_supported: Type.Array(Type.String()),
  resource_name: Type.String(),
  resource_documentation: Type.String(),
});

const Linkset = Type.Object({
  linkset: Type.Array(Type.Object({
    anchor: Type.String(),
    'service-desc': Type.Array(Type.Object({ href: Type.String(), type: Type.String() })),
  })),
});

/**
 * Discovery documents: RFC 9728 protected-resource metadata (public: it is where the 401
 * challenge sends a client that has no key yet) and the RFC 9727 API catalog (needs a key).
 */
export const wellKnownPlugin = fp<{ baseUrl: string }>(
  async (app, { baseUrl }) => {
    const base = baseUrl.replace(/\/$/, '');
    const metadata = {
      resource: base,
      bearer_methods_supported: ['header', 'query'],
      resource_name: 'canmap API',
      resource_documentation: `${base}/openapi.json`,
    };
    app.get('/.well-known/oauth-protected-resource', {
      config: { public: true },
      schema: { summary: 'OAuth protected-resource metadata (RFC 9728); needs no key', tags: ['meta'], security: [], response: { 200: ProtectedResource } },
    }, async () => metadata);

    const catalog = JSON.stringify({
      linkset: [{
        anchor: `${base}/`,
        'service-desc': [{ href: `${base}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' }],
      }],
    });
    app.get('/.well-known/api-catalog', {
      schema: {
        summary: 'API catalog (RFC 9727) linking to the OpenAPI description',
        tags: ['meta'],
        response: { 200: { content: { 'application/linkset+json': { schema: Linkset } } } },
      },
    }, async (_request, reply) => {
      reply
        .type('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"')
        .header('link', `<${base}/.well-known/api-catalog>; rel="api-catalog"`);
      return catalog;
    });
  },
  { name: 'canmap-well-known' },
);
