import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a caller's X-Request-Id may be to be kept: 1–128 characters, no spaces or control characters. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's genReqId: the caller's X-Request-Id when it is sane (a proxy's or a client's id, so
 * their logs and ours meet), else a new UUID. The id is the `reqId` of every log line of the request.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Every answer carries X-Request-Id. Set in the first onRequest hook, before CORS, auth and the rate
 * limit, so their refusals and preflights carry it too (an error answer keeps the headers already set).
 */
export const requestIdPlugin = fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
  },
  { name: 'canmap-request-id' },
);
