import type { KeyRecord } from '../../lib/keys.ts';
import type { BlockState } from '../../schemas/plans.ts';
import { errors, type ApiError } from '../errors.ts';

const ANSWER: Readonly<Record<BlockState, (dashboardUrl: string) => ApiError>> = {
  quota_exceeded: errors.quotaExceeded,
  spend_cap: errors.spendCap,
  billing_required: errors.billingRequired,
};

/**
 * The 429 a blocked key gets (volume 1 codes quota_exceeded, spend_cap, billing_required), or
 * null. The block rides on the cached key record, so this costs no query: a block set or lifted
 * by the enforcement job reaches a process within KEY_CACHE_TTL_SECONDS.
 */
export function blockedAnswer(key: KeyRecord, dashboardUrl: string): ApiError | null {
  return key.block ? ANSWER[key.block.state](dashboardUrl) : null;
}
