import type { DashboardAccount } from '../../io/access/dashboard.ts';
import type { MonthUsage } from '../../io/access/usage.ts';
import type { AccountMe, AccountUsage } from '../../schemas/account-api.ts';

/** The signed-in account as GET /account/me shows it: the dev plan by its customer name, never a key hash. */
export function accountMeView({ account, usage, keys }: DashboardAccount): AccountMe {
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

/** One month of an account's calls as GET /account/usage shows it. */
export function accountUsageView(accountId: string, report: MonthUsage): AccountUsage {
  return {
    account: accountId,
    month: report.month,
    from: report.from,
    to: report.to,
    rows: report.rows.map((r) => ({ day: r.day, family: r.family, calls: r.calls, dev_calls: r.devCalls, premium_calls: r.premiumCalls })),
    totals: { calls: report.totals.billable, dev_calls: report.totals.dev, premium_calls: report.totals.premium },
  };
}
