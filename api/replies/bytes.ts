import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits } from './etag.ts';

export interface BytesReplyOptions {
  /** Names the content: the release it comes from (the URL names the file). */
  etag: string;
  cacheControl: string;
  type: string;
}

/**
 * Stored bytes sent as they are (PNG and sprite files need no content coding): 204 when there
 * are none, 304 for a current ETag.
 */
export function sendBytes(request: FastifyRequest, reply: FastifyReply, bytes: Buffer | null, options: BytesReplyOptions): FastifyReply {
  if (!bytes) return reply.code(204).send();
  const etag = `"${options.etag}"`;
  reply.header('cache-control', options.cacheControl).header('etag', etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type(options.type).send(bytes);
}
