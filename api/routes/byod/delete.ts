import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isOverlayId } from '../../../engines/byod/overlay-id.ts';
import { overlayOwner } from '../../../engines/byod/owner.ts';
import { deleteOverlay } from '../../../engines/byod/store.ts';
import { BYOD_ERRORS, ByodDeleted, ByodIdParams } from '../../../schemas/byod-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import type { ByodRouteDeps } from './deps.ts';

/**
 * DELETE /byod/{id}: the row goes first (from then on every route answers 404), then the files.
 * Files a failure leaves behind are removed by the worker's sweep.
 */
export const deleteRoute: FastifyPluginAsyncTypebox<ByodRouteDeps> = async (app, { files, archives }) => {
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
    const kind = isOverlayId(id) ? await deleteOverlay(app.pg, overlayOwner(request.apiKey!), id) : null;
    if (!kind) throw errors.notFound('overlay not found');
    archives.forget(id);
    await files.removeOverlay(id).catch((err: unknown) => request.log.warn({ err, overlayId: id }, 'byod: files of a deleted overlay left for the sweep'));
    return reply.code(204).send(null);
  });
};
