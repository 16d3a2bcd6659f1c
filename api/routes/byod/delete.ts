import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BYOD_ERRORS, ByodDeleted, ByodIdParams } from '../../../schemas/byod-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';

/**
 * DELETE /byod/{id}: the row goes first (from then on every route answers 404), then the files.
 * Files a failure leaves behind are removed by the worker's sweep.
 */
export const deleteRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.delete('/byod/:id', {
    schema: {
      tags: ['byod'],
      summary: 'Delete an uploaded overlay',
      description: 'A style still naming byod:<id> then gets 404 for it.',
      params: ByodIdParams,
      response: { 204: ByodDeleted, ...errorResponses(BYOD_ERRORS, 404) },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const kind = await app.services.byod.remove(request.apiKey!, id);
    if (!kind) throw errors.notFound('overlay not found');
    await app.services.byod.files.removeOverlay(id).catch((err: unknown) => request.log.warn({ err, overlayId: id }, 'byod: files of a deleted overlay left for the sweep'));
    return reply.code(204).send(null);
  });
};
