import { Refusal } from '../../lib/errors.ts';
import { ReleaseUnavailableError } from '../../releases/unavailable.ts';
import type { ServiceLog } from '../deps.ts';

/**
 * Runs built-in engine work; anything it throws that is not already an answer is logged and
 * becomes the endpoint's 502 (volume 3: "any other upstream failure 502"), never a 500.
 */
export async function guardBuiltIn<T>(log: ServiceLog, failure: () => Refusal, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Refusal || err instanceof ReleaseUnavailableError) throw err;
    log.error({ err }, 'routing engine failed');
    throw failure();
  }
}
