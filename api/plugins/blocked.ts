import fp from 'fastify-plugin';
import { blockedAnswer } from '../access/block-answer.ts';
import '../fastify-types.ts';

/**
 * The blocked check as an onRequest hook on the root, registered after auth and before the rate
 * limit: volume 1 refuses blocked keys before the rate limiter runs, so their requests take no
 * rate-limit slot (and, refused at the door, are not metered). Dev-origin traffic passes a
 * quota_exceeded or spend_cap block (api/access/block-answer.ts).
 */
export const blockedPlugin = fp<{ dashboardUrl: string }>(
  async (app, { dashboardUrl }) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const key = request.apiKey;
      if (key === null || request.routeOptions.config.perCallAccess === true) return done();
      const answer = blockedAnswer(key, request, dashboardUrl);
      done(answer ?? undefined);
    });
  },
  { name: 'canmap-blocked', dependencies: ['canmap-auth'] },
);
