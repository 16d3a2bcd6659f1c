import type { FastifyReply } from 'fastify';

/** Edge caching of a 200 (volume 2: polled live behind a 60-second edge cache). */
export const CACHE_CONTROL = 'public, max-age=60';

/**
 * The answer of /incidents, /closures and /road-conditions as it is: the road-events service's
 * JSON bytes (no serializer runs; the routes' response schema documents them, the tests check
 * answers against it), behind the 60-second edge cache.
 */
export function sendRoadEvents(reply: FastifyReply, body: Buffer): FastifyReply {
  return reply
    .header('cache-control', CACHE_CONTROL)
    .type('application/json; charset=utf-8')
    .send(body);
}
