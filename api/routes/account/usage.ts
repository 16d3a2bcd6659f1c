import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { monthBounds, monthUsage, UsageInputError } from '../../../engines/access/usage.ts';
import { utcMonth } from '../../../lib/utc-calendar.ts';
import { ACCOUNT_ERRORS, AccountUsage, UsageQuery } from '../../../schemas/account-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { requireSession } from '../../access/session.ts';
import { errors } from '../../../lib/errors.ts';

/** The requested month, checked by monthBounds (the schema's pattern alone lets 2026-13 through). */
function checkedMonth(month: string): string {
  try {
    monthBounds(month);
    return month;
  } catch (err) {
    if (err instanceof UsageInputError) throw errors.accountBadRequest(err.message);
    throw err;
  }
}

/** GET /account/usage[?month=YYYY-MM]: the signed-in account's calls per UTC day and endpoint family. */
export const usageRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/account/usage', {
    config: { public: true },
    // The 400 is the account API's (code bad_request), written below after the session check.
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
    const now = app.now();
    const accountId = await requireSession(app.pg, request, now);
    const month = checkedMonth(request.query.month ?? utcMonth(now));
    const report = await monthUsage(app.pg, { accountId, month });
    return {
      account: accountId,
      month,
      from: report.from,
      to: report.to,
      rows: report.rows.map((r) => ({ day: r.day, family: r.family, calls: r.calls, dev_calls: r.devCalls, premium_calls: r.premiumCalls })),
      totals: { calls: report.totals.billable, dev_calls: report.totals.dev, premium_calls: report.totals.premium },
    };
  });
};
