import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCOUNT_ERRORS, AccountUsage, UsageQuery } from '../../../schemas/account-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sessionCookieOf } from '../../access/session.ts';

/** GET /account/usage[?month=YYYY-MM]: the signed-in account's calls per UTC day and endpoint family. */
export const usageRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/account/usage', {
    config: { public: true },
    // The 400 is the account API's (code bad_request), answered by the account service after the session check.
    attachValidation: true,
    schema: {
      tags: ['account'],
      summary: 'Calls of the signed-in account per day and endpoint family',
      description: 'Browser session (cookie canmap_session from a login link), no API key; not for embedding.',
      security: [],
      querystring: UsageQuery,
      response: { 200: AccountUsage, ...errorResponses(ACCOUNT_ERRORS, 400, 401) },
    },
  }, async (request) => {
    const accountId = await app.services.account.signedInAccount(sessionCookieOf(request));
    return app.services.account.usage(accountId, request.query.month);
  });
};
