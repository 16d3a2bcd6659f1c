import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dashboardAccount, type DashboardAccount } from '../../../engines/access/dashboard.ts';
import { ACCOUNT_ERRORS, AccountMe } from '../../../schemas/account-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { requireSession } from '../../access/session.ts';
import { errors } from '../../../lib/errors.ts';

function accountMe({ account, usage, keys }: DashboardAccount): AccountMe {
  return {
    id: account.id,
    plan: account.plan === 'hobby' ? 'dev' : account.plan,
    addons: account.addons,
    spend_cap: account.spendCap,
    state: account.block?.state ?? 'active',
    blocked_since: account.block?.since.toISOString() ?? null,
    payment: account.paymentFailedAt ? 'failed' : 'ok',
    payment_failed_at: account.paymentFailedAt?.toISOString() ?? null,
    created_at: account.createdAt.toISOString(),
    usage: {
      month: usage.month,
      calls: usage.billable,
      dev_calls: usage.dev,
      premium_calls: usage.premium,
      included_calls: usage.includedCalls,
      overage: usage.overage,
    },
    keys: keys.map((k) => ({
      id: k.id,
      allowed_origins: k.allowedOrigins,
      created_at: k.createdAt.toISOString(),
      disabled_at: k.disabledAt?.toISOString() ?? null,
    })),
  };
}

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
    const now = app.now();
    const accountId = await requireSession(app.pg, request, now);
    const found = await dashboardAccount(app.pg, accountId, new Date(now));
    if (!found) throw errors.sessionRequired();
    return accountMe(found);
  });
};
