import type { FastifyRequest } from 'fastify';
import { capabilityRefusal, requiredCapabilities } from '../../engines/access/capabilities.ts';
import { isDevOrigin } from '../../engines/access/dev-origins.ts';
import { errors } from '../errors.ts';
import { callerOrigin } from './origin.ts';

/**
 * 403 addon_required or dev_only (volume 1) when the request needs a premium capability its key
 * may not use here, by the table of engines/access/capabilities.ts.
 */
export function checkCapabilities(request: FastifyRequest): void {
  const rules = requiredCapabilities(request.method, request.routeOptions.url ?? '', { query: request.query, body: request.body });
  if (rules.length === 0) return;
  const caller = callerOrigin(request.headers);
  const fromDevOrigin = caller.state === 'present' && isDevOrigin(caller.origin);
  for (const rule of rules) {
    const refusal = capabilityRefusal(request.apiKey, rule, fromDevOrigin);
    if (!refusal) continue;
    const addon = refusal.addon;
    if (refusal.code === 'dev_only') {
      throw errors.devOnly(rule.capability, addon, `${rule.grants} on the dev plan works from dev origins only; subscribe to a paid plan with ${addon} to use it here.`);
    }
    throw errors.addonRequired(rule.capability, addon, `${rule.grants} needs the ${addon.replace(/^addon-/, '')} add-on (${addon}) on this account.`);
  }
}
