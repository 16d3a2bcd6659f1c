import type { IncomingHttpHeaders } from 'node:http';
import { BILLED_FROM_DEV_ORIGINS, familyOf, pathOf } from '../../engines/access/metering.ts';
import { isDevOrigin } from '../../lib/dev-origins.ts';
import { callerOrigin } from './origin.ts';

/** Whether the request comes from a dev origin (volume 1, Authentication rule 6): its Origin, else its Referer. */
export function fromDevOrigin(headers: IncomingHttpHeaders): boolean {
  const caller = callerOrigin(headers);
  return caller.state === 'present' && isDevOrigin(caller.origin);
}

/**
 * Whether a request to `family` is dev-origin traffic: counted under `dev:`, never billed and
 * ignored by the quota (volume 1, "What counts as a call" 3). The meter, the blocked check and
 * the batch allowance all ask this, so what is not billed is never held against the allowance.
 * Optimization is billed from dev origins too (volume 3, Billing 4), so it never is.
 */
export function isUnbilledDevTraffic(headers: IncomingHttpHeaders, family: string): boolean {
  return !BILLED_FROM_DEV_ORIGINS.has(family) && fromDevOrigin(headers);
}

/** isUnbilledDevTraffic for a request URL (its path decides the family). */
export function isUnbilledDevRequest(request: { headers: IncomingHttpHeaders; url: string }): boolean {
  return isUnbilledDevTraffic(request.headers, familyOf(pathOf(request.url)));
}
