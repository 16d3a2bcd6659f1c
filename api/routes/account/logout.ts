import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LoggedOut } from '../../../schemas/account-api.ts';
import { clearSessionCookie, sessionCookieOf } from '../../access/session.ts';

/** POST /account/logout: ends the session of the cookie and clears it; idempotent. */
export const logoutRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/account/logout', {
    config: { public: true },
    schema: {
      tags: ['account'],
      summary: 'Sign out of the account dashboard',
      description: 'Browser session (cookie canmap_session), no API key. Answers 204 whether or not a session was live.',
      security: [],
      response: { 204: LoggedOut },
    },
  }, async (request, reply) => {
    await app.services.account.logout(sessionCookieOf(request));
    clearSessionCookie(request, reply);
    return reply.code(204).send(null);
  });
};
