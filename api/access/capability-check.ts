import type { FastifyRequest } from 'fastify';
import { capabilityRefusal, requiredCapabilities, type CapabilityRule } from '../../engines/access/capability-rules.ts';
import { utcMonth } from '../../lib/utc-calendar.ts';
import { DEV_PREMIUM_CALLS_PER_MONTH } from '../../schemas/plans.ts';
import { errors } from '../../lib/errors.ts';
import { fromDevOrigin } from './dev-traffic.ts';

const REFUSAL = {
  addon_required: (rule: CapabilityRule, addon: string) =>
    errors.addonRequired(rule.capability, addon, `${rule.grants} needs the ${addon.replace(/^addon-/, '')} add-on (${addon}) on this account.`),
  dev_only: (rule: CapabilityRule, addon: string) =>
    errors.devOnly(rule.capability, addon, `${rule.grants} on the dev plan works from dev origins only; subscribe to a paid plan with ${addon} to use it here.`),
  usage_limit_reached: (rule: CapabilityRule, addon: string) =>
    errors.usageLimitReached(rule.capability, addon,
      `${rule.grants} on the dev plan is limited to ${DEV_PREMIUM_CALLS_PER_MONTH.toLocaleString('en-US')} premium calls a month; this account has used them. Core calls continue; the limit clears on the first of next month (UTC), or subscribe to a paid plan with ${addon}.`),
} as const;

/**
 * 403 addon_required, dev_only or usage_limit_reached (volume 1) when the request needs a premium
 * capability its key may not use here, by the table of engines/access/capability-rules.ts; else
 * marks the request premium, for the meter.
 */
export function checkCapabilities(request: FastifyRequest, now: number): void {
  const input = { query: request.query, body: request.body, params: request.params, freeText: request.freeText };
  const rules = requiredCapabilities(request.method, request.routeOptions.url ?? '', input);
  if (rules.length === 0) return;
  const devOrigin = fromDevOrigin(request.headers);
  const month = utcMonth(now);
  for (const rule of rules) {
    const refusal = capabilityRefusal(request.apiKey, rule, devOrigin, month);
    if (refusal) throw REFUSAL[refusal.code](rule, refusal.addon);
  }
  request.premium = true;
}
