import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RoutingCall } from '../../services/routing/index.ts';

/**
 * Runs a routing facade call for this request: its logger, its endpoint (the route's, or the one a
 * tool call stands for), and a signal that fires when the client goes away before the answer is
 * written (the routing task is then cancelled).
 */
export async function withRoutingCall<T>(
  request: FastifyRequest, reply: FastifyReply, work: (call: RoutingCall) => Promise<T>, endpoint = request.routeOptions.url ?? request.url,
): Promise<T> {
  const gone = new AbortController();
  // 'close' before the answer is written: the client went away.
  const onClose = () => {
    if (!reply.raw.writableEnded) gone.abort();
  };
  reply.raw.once('close', onClose);
  try {
    return await work({ log: request.log, endpoint, signal: gone.signal });
  } finally {
    reply.raw.removeListener('close', onClose);
  }
}
