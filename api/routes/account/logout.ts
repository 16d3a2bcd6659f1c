import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { endSession } from '../../../engines/access/sessions.ts';
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
    const sessionId = sessionCookieOf(request);
    if (sessionId !== undefined) await endSession(app.pg, sessionId);
    clearSessionCookie(request, reply);
    return reply.code(204).send(null);
  });
};
