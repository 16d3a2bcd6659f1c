import type { KeyRecord } from '../../lib/keys.ts';
import { utcMonth } from '../../lib/utc-calendar.ts';
import type { Plan } from '../../schemas/plans.ts';
import { allowanceOf, type Allowance } from '../../engines/access/allowance-rule.ts';
import { monthBounds, type Queryable } from './usage.ts';

/** An account's remaining allowance (the pure rule: engines/access/allowance-rule.ts), read from Postgres. */

/**
 * An account's allowance at `now`, read from what the enforcement job reads (its plan and spend cap
 * in accounts, its month of usage_daily) in one query on usage_daily's (account_id, day) index.
 * A request's calls reach usage_daily only once its answer is metered (journals flush every
 * 200 ms), so requests sent together each see the same room and can together pass it by up to
 * their own sizes; the enforcement job then blocks, as for every other endpoint. An unknown account (its row gone) is unlimited, like a key without one.
 */
export async function accountAllowance(db: Queryable, accountId: string, now: Date): Promise<Allowance> {
  const { from, to } = monthBounds(utcMonth(now));
  const { rows } = await db.query<{ plan: Plan; spend_cap: string; billable: string }>(
    `SELECT a.plan, a.spend_cap,
            (SELECT coalesce(sum(u.calls), 0) FROM usage_daily u
              WHERE u.account_id = a.id AND u.day BETWEEN $2::date AND $3::date AND NOT u.dev)::int8 AS billable
       FROM accounts a WHERE a.id = $1`,
    [accountId, from, to],
  );
  const row = rows[0];
  if (!row) return allowanceOf(null);
  return allowanceOf({ plan: row.plan, spendCap: Number(row.spend_cap), billable: Number(row.billable) });
}

/** Billing 5: the payer's room at `now` is its allowance (allowance.ts), the block's own rule; a key without an account is unlimited. */
export async function quotaRoom(db: Queryable, key: Pick<KeyRecord, 'accountId'>, now: Date): Promise<Allowance> {
  return key.accountId === null ? allowanceOf(null) : accountAllowance(db, key.accountId, now);
}
