import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ASSETS_ERRORS, GlyphParams, UnversionedGlyphParams } from '../../../schemas/assets-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { serveGlyphRange } from './glyph-range.ts';

const description = 'Glyph range of a fontstack (MapLibre glyphs.proto, application/x-protobuf), e.g. `Noto Sans Regular/0-255.pbf`; '
  + 'comma-separated stacks combine fonts (first font with the code point wins). Every stack draws Canadian Aboriginal syllabics. '
  + 'Not metered. Pass the key as the key query parameter.';

/** GET /glyphs/{version}/{fontstack}/{range}.pbf and the unversioned form (volume 3 "Maps"). */
export const glyphsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/glyphs/:version/:fontstack/:range', {
    schema: {
      tags: ['maps'], summary: 'Font glyphs', description: `${description} The current version (2) is immutable for a year.`,
      params: GlyphParams, response: { ...errorResponses(ASSETS_ERRORS, 400, 404) },
    },
  }, async (request, reply) => {
    await serveGlyphRange(app, request, reply, request.params);
  });
  app.get('/glyphs/:fontstack/:range', {
    schema: {
      tags: ['maps'], summary: 'Font glyphs (unversioned)', description: `${description} Cached for a day.`,
      params: UnversionedGlyphParams, response: { ...errorResponses(ASSETS_ERRORS, 400, 404) },
    },
  }, async (request, reply) => {
    await serveGlyphRange(app, request, reply, { version: null, ...request.params });
  });
};
