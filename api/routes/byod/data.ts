import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { open } from 'node:fs/promises';
import { BYOD_ERRORS, BYOD_MEDIA_TYPES, ByodData, ByodIdParams, ByodNotModified } from '../../../schemas/byod-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import { ifNoneMatchHits } from '../../replies/etag.ts';

/** GET /byod/{id}/data: the stored bytes as uploaded, streamed from disk. */
export const dataRoute: FastifyPluginAsyncTypebox = async (app) => {
  const { files } = app.services.byod;
  app.get('/byod/:id/data', {
    schema: {
      tags: ['byod'],
      summary: 'The stored bytes of an uploaded overlay',
      description: `${BYOD_MEDIA_TYPES.geojson} or ${BYOD_MEDIA_TYPES.pmtiles}, byte for byte as uploaded.`,
      params: ByodIdParams,
      response: { 200: ByodData, 304: ByodNotModified, ...errorResponses(BYOD_ERRORS, 404) },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const row = await app.services.byod.find(request.apiKey!, id);
    if (!row) throw errors.notFound('overlay not found');
    const etag = `"${row.sha256}"`;
    reply.header('etag', etag).header('cache-control', 'private, no-cache');
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
    // Deleted between the lookup and here: as unknown as any other id.
    const handle = await open(files.sourcePath(row.id, row.kind), 'r').catch(() => null);
    if (!handle) throw errors.notFound('overlay not found');
    return reply
      .type(BYOD_MEDIA_TYPES[row.kind])
      .header('content-length', row.bytes)
      .header('content-disposition', `attachment; filename="${row.id}.${row.kind}"`)
      .send(handle.createReadStream());
  });
};
