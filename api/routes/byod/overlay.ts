import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BYOD_ERRORS, ByodIdParams, ByodOverlay } from '../../../schemas/byod-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import { overlayReply } from '../../replies/byod.ts';

/** GET /byod/{id}: one overlay's metadata and tiling state. */
export const overlayRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/byod/:id', {
    schema: {
      tags: ['byod'],
      summary: 'An uploaded overlay',
      params: ByodIdParams,
      response: { 200: ByodOverlay, ...errorResponses(BYOD_ERRORS, 404) },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const row = await app.services.byod.find(request.apiKey!, id);
    if (!row) throw errors.notFound('overlay not found');
    reply.header('cache-control', 'no-store');
    return overlayReply(row, app.config.baseUrl);
  });
};
