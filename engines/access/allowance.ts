import { utcMonth } from '../../lib/utc-calendar.ts';
import { PLAN_VOLUME, type Plan } from '../../schemas/plans.ts';
import { monthBounds, type Queryable } from './usage.ts';

/**
 * An account's remaining allowance of billable calls this UTC month (volume 1, "Limits"): the one
 * rule behind both the enforcement job's quota_exceeded / spend_cap blocks (enforcement.ts blocks
 * exactly when nothing remains) and the checks that refuse a request too big for what remains
 * (POST /geocode/batch, the optimization solve). Dev-origin calls are never billed and so never
 * take from it.
 */

export type AllowanceCode = 'quota_exceeded' | 'spend_cap';

export interface Allowance {
  /** Billable calls the account may still make this month before its block; null: unlimited. */
  room: number | null;
  /** The 429 when short: quota_exceeded on hobby, spend_cap on paid plans (meaningless when room is null). */
  code: AllowanceCode;
}

export interface AllowanceStanding {
  plan: Plan;
  /** Currency units. */
  spendCap: number;
  /** The month's billable (non-dev) calls so far. */
  billable: number;
}

/**
 * Pure. Hobby may reach its included calls; a paid plan its included calls plus the whole calls its
 * spend cap buys at the plan's overage price (cap 0: none), so no call takes the overage past the
 * cap. Compared in whole milli-cents so 0.75 per 1,000 calls never meets a float rounding error.
 * null standing (a key without an account) is unlimited.
 */
export function allowanceOf(standing: AllowanceStanding | null): Allowance {
  if (standing === null) return { room: null, code: 'spend_cap' };
  const { includedCalls, overageCentsPer1000 } = PLAN_VOLUME[standing.plan];
  if (overageCentsPer1000 === null) {
    return { room: Math.max(0, includedCalls - standing.billable), code: 'quota_exceeded' };
  }
  const capMilliCents = Math.round(standing.spendCap * 100) * 1000;
  const overageCalls = Math.floor(capMilliCents / overageCentsPer1000);
  return { room: Math.max(0, includedCalls + overageCalls - standing.billable), code: 'spend_cap' };
}

/** The code of the 429 when `calls` more billable calls do not fit the allowance; null when they do. */
export function allowanceShortfall(allowance: Allowance, calls: number): AllowanceCode | null {
  return allowance.room !== null && calls > allowance.room ? allowance.code : null;
}

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
