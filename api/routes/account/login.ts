import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LOGIN_ERRORS, LoginQuery, LoginRedirect } from '../../../schemas/account-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sessionCookieOf, setSessionCookie } from '../../access/session.ts';

/** GET /account/login?token=: redeems a login link once for a session cookie, then on to the dashboard page /account/. */
export const loginRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/account/login', {
    config: { public: true },
    // A HEAD (link previewers send them) must not spend the single-use token.
    exposeHeadRoute: false,
    schema: {
      tags: ['account'],
      summary: 'Sign in to the account dashboard with a login link',
      description: 'Browser only. The token comes from `canmap accounts login-link`; it works once and expires. No API key.',
      security: [],
      querystring: LoginQuery,
      response: { 303: LoginRedirect, ...errorResponses(LOGIN_ERRORS, 401) },
    },
  }, async (request, reply) => {
    const session = await app.services.account.login(request.query.token, sessionCookieOf(request));
    setSessionCookie(request, reply, session.sessionId, session.maxAgeSeconds);
    return reply.redirect('/account/', 303);
  });
};
