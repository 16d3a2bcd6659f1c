import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { logAbortedRequest, logResponse } from '../logging.ts';

/** Logs the request once its connection closes: answered, or aborted when the answer never finished. */
function logOnClose(request: FastifyRequest, reply: FastifyReply, elapsedMs: () => number): void {
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) logAbortedRequest(request, elapsedMs());
  });
}

/**
 * One log line per request (Fastify's own request lines are turned off in api/app.ts): written by
 * onResponse once the answer is sent, or, when the connection closed before that (a client that
 * gave up mid-body or while we were working, for which no onResponse runs), as an info line
 * saying it was aborted.
 */
export const requestLogPlugin = fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      logOnClose(request, reply, () => reply.elapsedTime);
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      logResponse(request, reply, reply.elapsedTime);
      done();
    });
  },
  { name: 'canmap-request-log' },
);

/**
 * The same one line for a request Fastify hands to `frameworkErrors` (a URL it cannot route):
 * no hook runs for those, so the line is written when the connection is done with it.
 */
export function logUnroutedRequest(request: FastifyRequest, reply: FastifyReply): void {
  const start = performance.now();
  reply.raw.once('finish', () => logResponse(request, reply, performance.now() - start));
  logOnClose(request, reply, () => performance.now() - start);
}
