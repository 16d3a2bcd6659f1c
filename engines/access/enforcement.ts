import { utcMonth } from '../../lib/utc-calendar.ts';
import { DEV_PREMIUM_CALLS_PER_MONTH, PLAN_VOLUME, type BlockState, type Plan } from '../../schemas/plans.ts';
import { allowanceOf } from './allowance-rule.ts';

/**
 * The plan-enforcement rules of volume 3 ("Plan enforcement state of a key"), pure: the job
 * (io/access/enforcement-run.ts) feeds them each account's standing and stores the answer.
 *
 * The state is recomputed from the standing on every run rather than moved edge by edge, so
 * whatever changed since the last run (calls, plan, cap, a new month) is reflected at once:
 * - hobby at its included volume → quota_exceeded;
 * - indie/growth at their included volume whose overage reaches the spend cap (no further call
 *   fits under it) → spend_cap (cap 0 hard-stops at the included volume);
 * - a failed payment on a paid plan → billing_required, which only payment-ok lifts (a move to
 *   hobby does not);
 * - a new month starts from zero calls, so quota_exceeded and spend_cap lift at rollover.
 * Beside the block, a dev-plan account at its premium calls of the month is premium-limited
 * (usage_limit_reached on premium capabilities only) for the rest of that month.
 */

export interface Block {
  state: BlockState;
  since: Date;
  /** UTC month (`YYYY-MM`) the block started in. */
  month: string;
}

export interface AccountStanding {
  plan: Plan;
  /** The current UTC month's calls; dev-origin calls are counted but never billed nor held against the volume. */
  calls: { billable: number; dev: number; premium?: number };
  /** Currency units, as the prices of volume 1. */
  spendCap: number;
  paymentFailed: boolean;
  block: Block | null;
}

/** Overage of a month in cents (may be fractional): calls over the included volume at the plan's price. */
export function overageCents(plan: Plan, billableCalls: number): number {
  const { includedCalls, overageCentsPer1000 } = PLAN_VOLUME[plan];
  if (overageCentsPer1000 === null) return 0;
  return (Math.max(0, billableCalls - includedCalls) * overageCentsPer1000) / 1000;
}

/** quota_exceeded / spend_cap exactly when the month's allowance (allowance.ts) is used up. */
function usageState(plan: Plan, billableCalls: number, spendCap: number): BlockState | null {
  const allowance = allowanceOf({ plan, spendCap, billable: billableCalls });
  return allowance.room === 0 ? allowance.code : null;
}

/** The block an account should have at `now`, or null (active). An unchanged state keeps its `since`. */
export function nextBlock(standing: AccountStanding, now: Date): Block | null {
  const current = standing.block;
  const billing = standing.paymentFailed && (standing.plan !== 'hobby' || current?.state === 'billing_required');
  const state: BlockState | null = billing ? 'billing_required' : usageState(standing.plan, standing.calls.billable, standing.spendCap);
  if (state === null) return null;
  const month = utcMonth(now);
  // A usage block of an earlier month ended at rollover; one set again now is a new block.
  const continues = current !== null && current.state === state && (state === 'billing_required' || current.month === month);
  return continues ? current : { state, since: now, month };
}

/** The month a dev-plan account is premium-limited in at `now` (its premium calls reached the ceiling), or null. */
export function premiumLimitMonth(plan: Plan, premiumCalls: number, now: Date): string | null {
  return plan === 'hobby' && premiumCalls >= DEV_PREMIUM_CALLS_PER_MONTH ? utcMonth(now) : null;
}

/** Whether two answers of nextBlock differ enough to be written. */
export function blockChanged(before: Block | null, after: Block | null): boolean {
  if (before === null || after === null) return before !== after;
  return before.state !== after.state || before.since.getTime() !== after.since.getTime() || before.month !== after.month;
}
