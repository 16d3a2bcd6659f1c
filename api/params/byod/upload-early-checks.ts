import type { FastifyReply, FastifyRequest } from 'fastify';
import { rm } from 'node:fs/promises';
import { BYOD_MAX_BYTES, BYOD_MAX_OVERLAYS, BYOD_MULTIPART_OVERHEAD_BYTES, BYOD_QUOTA_FULL } from '../../../schemas/byod-api.ts';
import { errors } from '../../../lib/errors.ts';
import { sanitizeDisplayName } from './name.ts';
import { TOO_LARGE, type IncomingUpload } from './upload-body.ts';

/**
 * POST /byod's refusals that need no body (a Content-Length over the limit, a bad `name`, a full
 * quota), answered before anything is streamed; the connection closes after them.
 */
export function refuseBeforeReading(countOverlays: (request: FastifyRequest) => Promise<number>) {
  return async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    const length = Number(request.headers['content-length']);
    const multipart = request.headers['content-type']?.toLowerCase().startsWith('multipart/') === true;
    if (length > BYOD_MAX_BYTES + (multipart ? BYOD_MULTIPART_OVERHEAD_BYTES : 0)) throw errors.uploadRefused(TOO_LARGE);
    const { name } = request.query as { name?: unknown };
    // Anything but one string (name given twice) is left to the schema's 400 after parsing.
    if (!multipart && typeof name === 'string') {
      const checked = sanitizeDisplayName(name, '');
      if (!checked.ok) throw errors.uploadRefused(checked.error);
    }
    if (await countOverlays(request) >= BYOD_MAX_OVERLAYS) throw errors.uploadRefused(BYOD_QUOTA_FULL);
    return payload;
  };
}

/**
 * A body received for a request that then failed validation never reaches the handler: its
 * temporary file goes before the answer does (the handler's own are gone by then already).
 */
export function removeUnclaimedUpload(raw: WeakMap<FastifyRequest, IncomingUpload>) {
  return async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    const upload = raw.get(request);
    if (upload) await rm(upload.received.path, { force: true });
    return payload;
  };
}
