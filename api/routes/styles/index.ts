import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { buildStyle } from '../../../engines/styles/build-style.ts';
import { InvalidThemeError, UnknownStyleError } from '../../../engines/styles/style-errors.ts';
import { ALL_STYLE_NAMES } from '../../../engines/styles/style-names.ts';
import { InvalidThemeBody, StyleDocument, StyleParams, StyleQuery, StyleNotFoundBody } from '../../../schemas/styles-api.ts';
import { errors } from '../../errors.ts';
import { presentedKey } from '../../access/credentials.ts';
import { enabledTerrainArchives } from '../terrain/served-archive.ts';
import { overlayResolver } from './overlay-resolver.ts';

const JSON_SUFFIX = '.json';

/** GET /styles/{style}.json: a style document generated per request (never edge-cached). */
export const stylesRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
    const style = file.endsWith(JSON_SUFFIX) ? file.slice(0, -JSON_SUFFIX.length) : null;
    try {
      if (style === null) throw new UnknownStyleError(file, ALL_STYLE_NAMES);
      const resolveOverlay = await overlayResolver(app, request, q.overlays, q.profile);
      const document = buildStyle({
        style, baseUrl: app.config.baseUrl, key: presentedKey(request) ?? '',
        ...q, acceptLanguage: request.headers['accept-language'], resolveOverlay, archives: await enabledTerrainArchives(app),
      });
      reply.header('cache-control', 'no-store');
      return document;
    } catch (err) {
      if (err instanceof UnknownStyleError) throw errors.unknownStyle(ALL_STYLE_NAMES);
      if (err instanceof InvalidThemeError) throw errors.invalidTheme([...err.detail]);
      throw err;
    }
  });
};
