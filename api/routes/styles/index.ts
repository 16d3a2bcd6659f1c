import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { buildStyle } from '../../../engines/styles/build-style.ts';
import { UnknownStyleError } from '../../../engines/styles/style-errors.ts';
import { ALL_STYLE_NAMES } from '../../../engines/styles/style-names.ts';
import { InvalidThemeBody, StyleDocument, StyleParams, StyleQuery, StyleNotFoundBody } from '../../../schemas/styles-api.ts';
import { LruMap } from '../../../lib/lru-map.ts';
import { presentedKey } from '../../access/credentials.ts';
import { enabledTerrainArchives } from '../terrain/served-archive.ts';
import { styleOfFile, styleRefusal } from './style-file.ts';

/** Style documents recently answered (about 60 KB each), by everything they were built from. */
const CACHED_DOCUMENTS = 256;

/** GET /styles/{style}.json: a style document generated per request (never edge-cached). */
export const stylesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const documents = new LruMap<string, string>(CACHED_DOCUMENTS);
  app.get('/styles/:file', {
    schema: {
      tags: ['maps'],
      summary: 'A map style document',
      description: 'MapLibre style (version 8) over this gateway\'s tiles, glyphs and sprites with the key embedded. Styles: base, muted, outdoor, blueprint, blush, orchid, canopy, lagoon, tropic, sunset, bold, pastel, each -light or -dark; legacy names; the city styles calgary, montreal and iqaluit.',
      params: StyleParams,
      querystring: StyleQuery,
      response: { 200: StyleDocument, 400: InvalidThemeBody, 404: StyleNotFoundBody },
    },
  }, async (request, reply) => {
    const { file } = request.params;
    const q = request.query;
    const style = styleOfFile(file);
    try {
      if (style === null) throw new UnknownStyleError(file, ALL_STYLE_NAMES);
      const overlays = await app.services.maps.styleOverlays(request.apiKey, q.overlays, q.profile);
      const input = {
        style, baseUrl: app.config.baseUrl, key: presentedKey(request) ?? '',
        ...q, acceptLanguage: request.headers['accept-language'], archives: await enabledTerrainArchives(app),
      };
      // Everything the document depends on; JSON text is most of a style's cost, so it is what is kept.
      const cacheKey = JSON.stringify([input, overlays.fingerprint]);
      let text = documents.get(cacheKey);
      if (text === undefined) {
        text = JSON.stringify(buildStyle({ ...input, resolveOverlay: overlays.resolve }));
        documents.set(cacheKey, text);
      }
      // Already JSON text: a string body skips the response serializer (the schema types objects only).
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(text as never);
    } catch (err) {
      throw styleRefusal(err);
    }
  });
};
