import { gunzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits } from './etag.ts';

export interface TileReplyOptions {
  /** Names the tile's content: the release (or upload) it comes from; the URL names the tile. */
  etag: string;
  cacheControl: string;
  /** How the stored bytes are compressed. */
  encoding: 'gzip' | 'identity';
}

function acceptsGzip(header: string | undefined): boolean {
  // No Accept-Encoding: any coding is acceptable (RFC 9110 §12.5.3).
  if (header === undefined) return true;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * A vector tile answer: the stored bytes as they are (gzip tiles are never re-compressed), or
 * gunzipped for a client that refuses gzip; 204 when there is no tile; 304 for a current ETag.
 */
export function sendTile(request: FastifyRequest, reply: FastifyReply, bytes: Buffer | null, options: TileReplyOptions): FastifyReply {
  if (!bytes) return reply.code(204).send();
  const gzip = options.encoding === 'gzip' && acceptsGzip(request.headers['accept-encoding']);
  const etag = `"${options.etag}${options.encoding === 'gzip' && !gzip ? '-identity' : ''}"`;
  reply.header('cache-control', options.cacheControl).header('etag', etag).header('vary', 'Accept-Encoding');
  if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.type('application/x-protobuf');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(options.encoding === 'gzip' && !gzip ? gunzipSync(bytes) : bytes);
}
