import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCOUNT_ERRORS, AccountMe } from '../../../schemas/account-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sessionCookieOf } from '../../access/session.ts';

/** GET /account/me: the signed-in account, its state, this month's usage and its keys. */
export const meRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/account/me', {
    config: { public: true },
    schema: {
      tags: ['account'],
      summary: 'The signed-in account',
      description: 'Browser session (cookie canmap_session from a login link), no API key; not for embedding.',
      security: [],
      response: { 200: AccountMe, ...errorResponses(ACCOUNT_ERRORS, 401) },
    },
  }, async (request) => {
    const accountId = await app.services.account.signedInAccount(sessionCookieOf(request));
    return app.services.account.me(accountId);
  });
};
