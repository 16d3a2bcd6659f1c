import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ASSETS_ERRORS, SpriteParams, UnversionedSpriteParams } from '../../../schemas/assets-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { serveSpriteFile } from './sprite-file.ts';

const description = 'Sprite sheet file: `<sheet>[@2x].json` (icon index) or `.png` (image); sheets light, dark, muted-light, muted-dark. '
  + 'Not metered. Pass the key as the key query parameter.';

/** GET /sprite/{version}/{file} and the unversioned form (volume 3 "Maps"). */
export const spriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/sprite/:version/:file', {
    schema: {
      tags: ['maps'], summary: 'Sprite sheet', description: `${description} The current version (2) is immutable for a year.`,
      params: SpriteParams, response: { ...errorResponses(ASSETS_ERRORS, 400, 404) },
    },
  }, async (request, reply) => {
    await serveSpriteFile(app, request, reply, request.params);
  });
  app.get('/sprite/:file', {
    schema: {
      tags: ['maps'], summary: 'Sprite sheet (unversioned)', description: `${description} Cached for a day.`,
      params: UnversionedSpriteParams, response: { ...errorResponses(ASSETS_ERRORS, 400, 404) },
    },
  }, async (request, reply) => {
    await serveSpriteFile(app, request, reply, { version: null, ...request.params });
  });
};
