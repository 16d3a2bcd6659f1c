import type { OptimizationRequest } from '../request-model.ts';

/**
 * Volume 3 rule 5: without a timeout the solve gets min(cap, max(2, ceil(visits / 25))) seconds,
 * visits being the pickups and deliveries of the planned (not ignored) shipments; a longer
 * timeout is clamped to the plan's longest solve.
 */
export function solveSeconds(request: OptimizationRequest, capSeconds: number): { seconds: number; clamped: boolean } {
  if (request.timeout !== null) return request.timeout > capSeconds ? { seconds: capSeconds, clamped: true } : { seconds: request.timeout, clamped: false };
  const visits = request.shipments.reduce((n, s) => n + (s.ignore ? 0 : Number(s.pickup !== null) + Number(s.delivery !== null)), 0);
  return { seconds: Math.min(capSeconds, Math.max(2, Math.ceil(visits / 25))), clamped: false };
}
