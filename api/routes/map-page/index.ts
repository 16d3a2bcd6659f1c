import type { FastifyPluginAsync } from 'fastify';
import { loadPageFiles } from './page-files.ts';
import { ifNoneMatchHits } from '../../replies/etag.ts';

/**
 * The map page (README "The map page"): GET /map/ and its scripts, styles and MapLibre's files.
 * Public, like the protected-resource metadata: they are the same static bytes for everyone and
 * hold no data, and a browser cannot attach a key to a page's own script and stylesheet requests.
 * Not being authenticated they are neither rate-limited nor metered. Everything the page then asks
 * the API for (style, /layers, tiles, glyphs, sprites, terrain) carries the key of the page URL
 * and is authenticated and metered as usual. Any other path under /map/ is an unserved path (401
 * without a key, else 404). Not part of the OpenAPI document: it is a page, not an operation.
 */
export const mapPageRoutes: FastifyPluginAsync = async (app) => {
  const files = await loadPageFiles();
  for (const file of files) {
    app.get(file.url, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      reply
        .header('cache-control', file.cacheControl)
        .header('etag', file.etag)
        .header('x-content-type-options', 'nosniff')
        // The page URL carries the key: no other site learns it from a Referer.
        .header('referrer-policy', 'same-origin');
      if (ifNoneMatchHits(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
      return reply.type(file.contentType).send(file.body);
    });
  }
  // Relative URLs in the page resolve against /map/, so /map (with its query) moves there.
  app.get('/map', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const q = request.url.indexOf('?');
    return reply.redirect(`/map/${q === -1 ? '' : request.url.slice(q)}`, 301);
  });
};
