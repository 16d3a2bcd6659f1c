/** Plans, add-ons and the capabilities add-ons grant (volume 1, "Authentication" rule 4 and "Limits"). */

export const PLANS = ['hobby', 'indie', 'growth'] as const;
export type Plan = (typeof PLANS)[number];

export const ADDONS = ['legal-land', 'energy', 'agriculture', 'remote', 'mining'] as const;
export type Addon = (typeof ADDONS)[number];

/** What a request may need: core (every plan) or one of the premium capabilities an add-on grants. */
export const CAPABILITIES = ['core', 'legalLand', 'energy', 'agriculture', 'remote', 'mining'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export type PremiumCapability = Exclude<Capability, 'core'>;

/** Volume 1 "Limits": included non-dev calls per UTC calendar month, and overage per 1,000 calls over them (null: none, blocked). */
export const PLAN_VOLUME: Readonly<Record<Plan, { includedCalls: number; overageCentsPer1000: number | null }>> = {
  hobby: { includedCalls: 10_000, overageCentsPer1000: null },
  indie: { includedCalls: 250_000, overageCentsPer1000: 100 },
  growth: { includedCalls: 2_000_000, overageCentsPer1000: 75 },
};

/** Volume 1 "Limits": the dev (hobby) plan's monthly ceiling of premium calls; past it, usage_limit_reached. */
export const DEV_PREMIUM_CALLS_PER_MONTH = 5_000;

/** Volume 1 "Limits": production (non-dev) origins a key's allowed-origins list may hold; dev origins do not count. */
export const PRODUCTION_ORIGINS_PER_KEY: Readonly<Record<Plan, number>> = {
  hobby: 0,
  indie: 1,
  growth: 100,
};

/** Plan-enforcement blocks (volume 3, "Plan enforcement state of a key"); no block = active. */
export const BLOCK_STATES = ['quota_exceeded', 'spend_cap', 'billing_required'] as const;
export type BlockState = (typeof BLOCK_STATES)[number];

/** Volume 1 "Limits", optimization per plan (initial values); keys without an account get growth's. */
export interface OptimizationLimits {
  /** Every entry of model.shipments, ignored ones included. */
  shipments: number;
  vehicles: number;
  /** Distinct places after merging; own matrices may hold at most its square of cells. */
  locations: number;
  /** The longest solve a request's timeout is clamped to. */
  longestSolveSeconds: number;
  /** Concurrent solves per account (or per key without an account). */
  solvesAtOnce: number;
}

export const OPTIMIZATION_LIMITS: Readonly<Record<Plan, Readonly<OptimizationLimits>>> = {
  hobby: { shipments: 25, vehicles: 5, locations: 100, longestSolveSeconds: 10, solvesAtOnce: 1 },
  indie: { shipments: 500, vehicles: 50, locations: 500, longestSolveSeconds: 30, solvesAtOnce: 2 },
  growth: { shipments: 2000, vehicles: 200, locations: 1000, longestSolveSeconds: 60, solvesAtOnce: 2 },
};

/** The optimization limits of a key's plan; a key without an account (plan null) gets growth's. */
export function optimizationLimitsOf(plan: Plan | null): Readonly<OptimizationLimits> {
  return OPTIMIZATION_LIMITS[plan ?? 'growth'];
}
