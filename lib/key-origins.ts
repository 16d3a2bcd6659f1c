import { PRODUCTION_ORIGINS_PER_KEY, type Plan } from '../schemas/plans.ts';
import { isDevOrigin } from './dev-origins.ts';

/**
 * Production origins per key (volume 1, "Limits / Plans"). A plan of null is a key without an
 * account (founder/integration): no plan, no limit.
 */

/** The origins of a list that are not dev origins, in list order. */
export function productionOrigins(list: readonly string[]): string[] {
  return list.filter((origin) => !isDevOrigin(origin));
}

/** Null when the list fits the plan's allowance, else why it does not (for operators). */
export function checkOriginAllowance(plan: Plan | null, list: readonly string[]): string | null {
  if (plan === null) return null;
  const production = productionOrigins(list);
  const allowance = PRODUCTION_ORIGINS_PER_KEY[plan];
  if (production.length <= allowance) return null;
  const listed = `this key lists ${production.length}: ${production.join(', ')}`;
  if (allowance === 0) {
    return `the dev plan allows dev origins only (localhost, 127.0.0.1, [::1], *.localhost, *.pages.dev, *.workers.dev); ${listed}`;
  }
  return `the ${plan} plan allows ${allowance} production origin${allowance === 1 ? '' : 's'} per key; ${listed} (dev origins do not count)`;
}

/**
 * The list as enforced at request time: every dev origin on it plus the first N production
 * origins in stored order (N = the plan's allowance). Returns `list` itself when nothing is
 * dropped. May be empty for a non-empty list, which must then admit no origin at all.
 */
export function honouredOrigins(plan: Plan | null, list: readonly string[]): readonly string[] {
  if (plan === null) return list;
  let left = PRODUCTION_ORIGINS_PER_KEY[plan];
  const kept = list.filter((origin) => {
    if (isDevOrigin(origin)) return true;
    if (left === 0) return false;
    left -= 1;
    return true;
  });
  return kept.length === list.length ? list : kept;
}

/** The origins on the list that the plan no longer honours (e.g. after a downgrade). */
export function droppedOrigins(plan: Plan | null, list: readonly string[]): string[] {
  const honoured = new Set(honouredOrigins(plan, list));
  return list.filter((origin) => !honoured.has(origin));
}
