import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { rm } from 'node:fs/promises';
import {
  BYOD_ERRORS, BYOD_MAX_BYTES, BYOD_MAX_OVERLAYS, BYOD_MULTIPART_OVERHEAD_BYTES, ByodOverlay, ByodUploadBody, ByodUploadQuery,
} from '../../../schemas/byod-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import { chooseUploadName } from '../../params/byod/upload-name.ts';
import { MISSING_BODY, readMultipartUpload, registerUploadParsers, type IncomingUpload } from '../../params/byod/upload-body.ts';
import { refuseBeforeReading, removeUnclaimedUpload } from '../../params/byod/upload-early-checks.ts';
import { overlayReply } from '../../replies/byod.ts';
import type { ByodRouteDeps } from './deps.ts';

/**
 * POST /byod: a GeoJSON or PMTiles file → a stored overlay (201). What can be refused before the
 * body is read is refused first (a full quota, a Content-Length over the limit, a bad name), so
 * nothing is streamed for nothing; the quota is then enforced again, atomically, when the row is
 * inserted (io/byod/store.ts).
 */
export const uploadRoute: FastifyPluginAsyncTypebox<ByodRouteDeps> = async (app, { tiling }) => {
  const { files } = app.services.byod;
  const raw = new WeakMap<FastifyRequest, IncomingUpload>();
  await registerUploadParsers(app, files, raw);

  app.post('/byod', {
    bodyLimit: BYOD_MAX_BYTES + BYOD_MULTIPART_OVERHEAD_BYTES,
    schema: {
      tags: ['byod'],
      summary: 'Upload an overlay',
      description: `A GeoJSON or PMTiles (vector) file of at most ${BYOD_MAX_BYTES} bytes, as the body or as the file field of a ` +
        `multipart form; ${BYOD_MAX_OVERLAYS} overlays per account. GeoJSON is checked now and tiled by a background job ` +
        '(status processing, then ready or failed); a PMTiles archive is checked now and served as it is.',
      querystring: ByodUploadQuery,
      body: ByodUploadBody,
      response: { 201: ByodOverlay, ...errorResponses(BYOD_ERRORS, 400, 503) },
    },
    preParsing: refuseBeforeReading((request) => app.services.byod.count(request.apiKey!)),
    onSend: removeUnclaimedUpload(raw),
  }, async (request, reply) => {
    const upload = request.isMultipart() ? await readMultipartUpload(request, files) : raw.get(request);
    if (!upload) throw errors.badRequest(MISSING_BODY);
    try {
      const name = chooseUploadName(upload, request.query.name);
      if (!name.ok) throw errors.badRequest(name.error);
      const overlay = await app.services.byod.accept(request.apiKey!, {
        received: upload.received, kind: upload.kind, name: name.value, now: new Date(app.now()), limit: BYOD_MAX_OVERLAYS,
      }, request.log);
      if (overlay.status === 'processing') await tiling.request(overlay.id);
      reply.code(201).header('cache-control', 'no-store').header('location', `/byod/${overlay.id}`);
      return overlayReply(overlay, app.config.baseUrl);
    } finally {
      await rm(upload.received.path, { force: true });
    }
  });
};
