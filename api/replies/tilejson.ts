import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TileJson } from '../../schemas/tiles-api.ts';
import { ifNoneMatchHits } from './etag.ts';

/**
 * A TileJSON answer. It embeds the caller's key, so only the caller's own cache may keep it
 * (`private`: a shared cache keyed without the key would hand one key to everyone), revalidated
 * every time by an ETag over the document (release, key and base URL all change it); 304 when current.
 */
export function sendTileJson(request: FastifyRequest, reply: FastifyReply, document: TileJson): FastifyReply | TileJson {
  const etag = `"${createHash('sha256').update(JSON.stringify(document)).digest('base64url').slice(0, 22)}"`;
  reply.header('cache-control', 'private, no-cache').header('etag', etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return document;
}
