import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { FreeText } from '../../engines/grammars/free-text.ts';
import type { KeyRecord } from '../../lib/keys.ts';
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

/** What the capability check reads of a call: who calls, from where, which endpoint, with what. */
export interface CapabilityCall {
  key: KeyRecord | null;
  headers: IncomingHttpHeaders;
  method: string;
  /** The route as registered (Fastify's routeOptions.url). */
  route: string;
  input: { query: unknown; body: unknown; params?: unknown; freeText?: readonly FreeText[] | null };
}

/**
 * 403 addon_required, dev_only or usage_limit_reached (volume 1) when the call needs a premium
 * capability its key may not use here, by the table of engines/access/capability-rules.ts; else
 * whether the call is premium (the meter counts it apart). Every front door asks this.
 */
export function premiumCall(call: CapabilityCall, now: number): boolean {
  const rules = requiredCapabilities(call.method, call.route, call.input);
  if (rules.length === 0) return false;
  const devOrigin = fromDevOrigin(call.headers);
  const month = utcMonth(now);
  for (const rule of rules) {
    const refusal = capabilityRefusal(call.key, rule, devOrigin, month);
    if (refusal) throw REFUSAL[refusal.code](rule, refusal.addon);
  }
  return true;
}

/** premiumCall for an HTTP request (the preHandler of api/plugins/capabilities.ts): marks it premium. */
export function checkCapabilities(request: FastifyRequest, now: number): void {
  const input = { query: request.query, body: request.body, params: request.params, freeText: request.freeText };
  if (premiumCall({ key: request.apiKey, headers: request.headers, method: request.method, route: request.routeOptions.url ?? '', input }, now)) {
    request.premium = true;
  }
}
