import fp from 'fastify-plugin';
import type { RequestLimiter } from '../access/request-limiter.ts';
import '../fastify-types.ts';

/**
 * The per-key rate limit (api/access/request-limiter.ts) as an onRequest hook on the root, registered
 * after the auth plugin so it sees `request.apiKey`. Every authenticated request counts, the
 * plain-text 404 of an unserved path included; routes marked `config: { public: true }` (no key)
 * are not limited; routes marked `perCallAccess` (POST /mcp) take their slots per call.
 */
export const rateLimitPlugin = fp<{ limiter: RequestLimiter }>(
  async (app, { limiter }) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const key = request.apiKey;
      if (key === null || request.routeOptions.config.perCallAccess === true) return done();
      limiter.admit(key, request.log, done);
    });
  },
  { name: 'canmap-rate-limit', dependencies: ['canmap-auth'] },
);
