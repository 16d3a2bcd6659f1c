import type pg from 'pg';
import { inTransaction, type Pool } from '../../lib/postgres.ts';
import type { BlockState, Plan } from '../../schemas/plans.ts';
import { utcMonth } from '../../lib/utc-calendar.ts';
import { blockChanged, nextBlock, premiumLimitMonth, type Block } from '../../engines/access/enforcement.ts';
import { monthTotalsByAccount, monthUsage } from './usage.ts';

/**
 * Applying the enforcement rules (enforcement.ts) to the accounts in Postgres: the job of
 * jobs/schedules/enforcement.ts, `canmap enforce --once`, and the payment commands (which move
 * their own account at once). Every writer of account_blocks or payment state takes this
 * transaction-scoped advisory lock first, so a run never writes back a state read before a
 * concurrent payment-ok committed.
 */
const ENFORCEMENT_LOCK = 4_242_017_006;

/** What a run moves: an account's block, or its dev-plan premium limit (from/to usage_limit_reached). */
export type EnforcementState = BlockState | 'usage_limit_reached';

export interface BlockChange {
  accountId: string;
  plan: Plan;
  from: EnforcementState | null;
  to: EnforcementState | null;
  billableCalls: number;
  premiumCalls: number;
  month: string;
}

interface StandingRow {
  id: string;
  plan: Plan;
  spend_cap: string;
  payment_failed_at: Date | null;
  state: BlockState | null;
  since: Date | null;
  month: string | null;
  premium_limited_month: string | null;
}

export async function lockEnforcement(client: pg.ClientBase): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [ENFORCEMENT_LOCK]);
}

/** Recomputes the blocks of every account (or one), inside the caller's transaction holding the lock. */
export async function enforceIn(client: pg.ClientBase, now: Date, accountId?: string): Promise<BlockChange[]> {
  const month = utcMonth(now);
  const { rows } = await client.query<StandingRow>(
    `SELECT a.id, a.plan, a.spend_cap, a.payment_failed_at, a.premium_limited_month, b.state, b.since, b.month
       FROM accounts a LEFT JOIN account_blocks b ON b.account_id = a.id
      WHERE $1::text IS NULL OR a.id = $1
      ORDER BY a.id`,
    [accountId ?? null],
  );
  const totals = accountId === undefined
    ? await monthTotalsByAccount(client, month)
    : new Map([[accountId, (await monthUsage(client, { accountId, month })).totals]]);
  const changes: BlockChange[] = [];
  for (const row of rows) {
    const block: Block | null = row.state && row.since && row.month ? { state: row.state, since: row.since, month: row.month } : null;
    const calls = totals.get(row.id) ?? { billable: 0, dev: 0, premium: 0 };
    const change = { accountId: row.id, plan: row.plan, billableCalls: calls.billable, premiumCalls: calls.premium, month };
    const limited = premiumLimitMonth(row.plan, calls.premium, now);
    // A month that has ended is as good as null: the request-time check compares it with now.
    const wasLimited = row.premium_limited_month === month ? month : null;
    if (limited !== row.premium_limited_month) {
      await client.query('UPDATE accounts SET premium_limited_month = $2 WHERE id = $1', [row.id, limited]);
      if (limited !== wasLimited) changes.push({ ...change, from: wasLimited ? 'usage_limit_reached' : null, to: limited ? 'usage_limit_reached' : null });
    }
    const next = nextBlock({ plan: row.plan, calls, spendCap: Number(row.spend_cap), paymentFailed: row.payment_failed_at !== null, block }, now);
    if (!blockChanged(block, next)) continue;
    if (next === null) {
      await client.query('DELETE FROM account_blocks WHERE account_id = $1', [row.id]);
    } else {
      await client.query(
        `INSERT INTO account_blocks (account_id, state, since, month) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id) DO UPDATE SET state = EXCLUDED.state, since = EXCLUDED.since, month = EXCLUDED.month`,
        [row.id, next.state, next.since, next.month],
      );
    }
    changes.push({ ...change, from: block?.state ?? null, to: next?.state ?? null });
  }
  return changes;
}

export function describeChange(c: BlockChange): string {
  const plan = c.plan === 'hobby' ? 'dev' : c.plan;
  const calls = c.from === 'usage_limit_reached' || c.to === 'usage_limit_reached' ? `${c.premiumCalls} premium calls` : `${c.billableCalls} billable calls`;
  return `account ${c.accountId}: ${c.from ?? 'active'} -> ${c.to ?? 'active'} (plan ${plan}, ${calls} in ${c.month})`;
}

/** One enforcement run over every account, its changes written in one transaction and logged one line each. */
export async function runEnforcement(
  pool: Pool,
  options: { now?: Date; log?: (line: string) => void } = {},
): Promise<{ accounts: number; changes: BlockChange[] }> {
  const now = options.now ?? new Date();
  const result = await inTransaction(pool, async (client) => {
    await lockEnforcement(client);
    const changes = await enforceIn(client, now);
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM accounts');
    return { accounts: Number(rows[0]!.n), changes };
  });
  for (const change of result.changes) options.log?.(describeChange(change));
  return result;
}
