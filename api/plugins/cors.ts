import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isAccountPath } from '../access/session.ts';
import { methodsServedAt } from './served-methods.ts';

const CORS: FastifyCorsOptions = {
  // Keys, not CORS, decide who may call: a key's allowed origins are checked by the auth plugin.
  origin: '*',
  // X-Goog-Api-Key: the optimization endpoints' vendor-compatible key header (api/access/credentials.ts).
  allowedHeaders: ['Authorization', 'X-API-Key', 'X-Goog-Api-Key', 'Content-Type', 'X-Request-Id'],
  // Optimization answers tell what they billed, and a clamped timeout, in these two.
  exposedHeaders: ['Retry-After', 'ETag', 'Content-Length', 'Content-Range', 'Accept-Ranges', 'X-Svc-Billable-Shipments', 'Warning', 'X-Request-Id'],
  maxAge: 86_400,
};
const OFF: FastifyCorsOptions = { origin: false };
const ALLOW_METHODS = 'access-control-allow-methods';

/**
 * Only browsers send Origin on a cross-origin request; anything else needs no CORS headers.
 * The account dashboard (/account/*, browser sessions) is never readable from another origin.
 * A preflight allows exactly the methods the path's routes answer (none for a path nobody serves).
 */
function corsOptionsFor(app: FastifyInstance, request: FastifyRequest): FastifyCorsOptions {
  if (request.headers.origin === undefined || isAccountPath(request.url)) return OFF;
  if (request.method !== 'OPTIONS') return CORS;
  if (request.headers['access-control-request-method'] === undefined) return OFF;
  return { ...CORS, methods: methodsServedAt(app, request.url) };
}

/**
 * CORS, registered before the auth plugin so a browser preflight (which carries no key) is
 * answered. An OPTIONS that is not a preflight gets no CORS treatment and goes through auth
 * like any other request. `Vary: Origin` is set on every response, so caches keep the two apart.
 */
export const corsPlugin = fp(
  async (app) => {
    await app.register(cors, {
      hook: 'onRequest',
      delegator: (request, callback) => callback(null, corsOptionsFor(app, request)),
    });
    // @fastify/cors always writes Allow-Methods; an empty one is left out rather than sent blank.
    app.addHook('onSend', async (_request, reply) => {
      if (reply.getHeader(ALLOW_METHODS) === '') reply.removeHeader(ALLOW_METHODS);
    });
  },
  { name: 'canmap-cors' },
);
