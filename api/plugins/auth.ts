import fp from 'fastify-plugin';
import type { Authenticator } from '../access/authenticator.ts';
import '../fastify-types.ts';

/**
 * API-key authentication and the allowed-origins rule, as an onRequest hook on the root so it
 * runs for every route and for unknown paths (the 404 handler) alike. Routes marked
 * `config: { public: true }` skip it.
 */
export const authPlugin = fp<{ authenticator: Authenticator }>(
  async (app, { authenticator }) => {
    app.decorateRequest('apiKey', null);
    // Callback style: a cached key is admitted without a promise or an extra tick.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.routeOptions.config.public === true) return done();
      let result: ReturnType<Authenticator['authenticate']>;
      try {
        result = authenticator.authenticate(request);
      } catch (err) {
        return done(err as Error);
      }
      if (result instanceof Promise) {
        result.then((key) => {
          request.apiKey = key;
          done();
        }, done);
        return;
      }
      request.apiKey = result;
      done();
    });
  },
  { name: 'canmap-auth', dependencies: ['canmap-error-handler'] },
);
