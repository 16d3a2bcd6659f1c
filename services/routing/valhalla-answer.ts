/**
 * How a failed Valhalla call is answered. Handlers check their parameters first, so every 400 is
 * ours and Valhalla only ever sees valid requests.
 */
import { ValhallaFailure } from '../../engines/valhalla/failure.ts';
import { Refusal, errors } from '../../lib/errors.ts';
import type { ServiceLog } from '../deps.ts';

/** Our answer to a failed Valhalla call: 422 no route, the endpoint's 502, or 503 with Retry-After 5 (volume 1 variant 1). */
export function valhallaAnswer(failure: ValhallaFailure, failed: () => Refusal, noRoute: () => Refusal = errors.noRoute): Refusal {
  if (failure.kind === 'no_route') return noRoute();
  if (failure.kind === 'unavailable') return errors.serviceUnavailable('routing');
  return failed();
}

/**
 * Runs work against Valhalla. Its failures become our answers (`failed` is the endpoint's 502,
 * `noRoute` its "no answer" status: 422, or 502 for /isochrone); anything else thrown that is not
 * already an answer is logged and becomes `failed()`: never a 500.
 */
export async function throughValhalla<T>(
  log: ServiceLog, failed: () => Refusal, work: () => Promise<T>, noRoute: () => Refusal = errors.noRoute,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Refusal) throw err;
    if (err instanceof ValhallaFailure) {
      log.warn({ err, valhalla: err.detail }, `routing through valhalla: ${err.kind}`);
      throw valhallaAnswer(err, failed, noRoute);
    }
    log.error({ err }, 'routing through valhalla failed');
    throw failed();
  }
}
