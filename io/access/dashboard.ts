import type { Pool } from '../../lib/postgres.ts';
import { accountUsage, getAccount, type AccountUsageCounts, type AccountView } from './accounts.ts';

/** What the account dashboard (GET /account/me) shows of one account: never a key hash. */

export interface DashboardKey {
  id: string;
  allowedOrigins: string[];
  createdAt: Date;
  disabledAt: Date | null;
}

export interface DashboardAccount {
  account: AccountView;
  usage: AccountUsageCounts;
  keys: DashboardKey[];
}

export async function dashboardAccount(pool: Pool, accountId: string, now: Date): Promise<DashboardAccount | null> {
  const account = await getAccount(pool, accountId);
  if (!account) return null;
  const [usage, keys] = await Promise.all([
    accountUsage(pool, account, now),
    pool.query<{ id: string; allowed_origins: string[]; created_at: Date; disabled_at: Date | null }>(
      'SELECT id, allowed_origins, created_at, disabled_at FROM api_keys WHERE account_id = $1 ORDER BY created_at, id',
      [accountId],
    ),
  ]);
  return {
    account,
    usage,
    keys: keys.rows.map((k) => ({ id: k.id, allowedOrigins: k.allowed_origins, createdAt: k.created_at, disabledAt: k.disabled_at })),
  };
}
