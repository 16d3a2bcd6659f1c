import { PLAN_VOLUME, type Plan } from '../../schemas/plans.ts';

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
