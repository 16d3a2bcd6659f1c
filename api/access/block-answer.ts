import type { IncomingHttpHeaders } from 'node:http';
import type { KeyRecord } from '../../lib/keys.ts';
import type { BlockState } from '../../schemas/plans.ts';
import { errors, type Refusal } from '../../lib/errors.ts';
import { isUnbilledDevRequest } from './dev-traffic.ts';

const ANSWER: Readonly<Record<BlockState, (dashboardUrl: string) => Refusal>> = {
  quota_exceeded: errors.quotaExceeded,
  spend_cap: errors.spendCap,
  billing_required: errors.billingRequired,
};

/**
 * Blocks that concern billed volume only. Dev-origin traffic is never billed and ignored by the
 * quota (volume 1), so it passes them. billing_required is not about volume: the account's
 * payment failed, and every request of its keys waits for the payment method, dev origins too.
 */
const VOLUME_BLOCKS: ReadonlySet<BlockState> = new Set(['quota_exceeded', 'spend_cap']);

/**
 * The 429 a blocked key gets for this request (volume 1 codes quota_exceeded, spend_cap,
 * billing_required), or null. The block rides on the cached key record, so this costs no query
 * (and an unblocked key not even the origin check): a block set or lifted by the enforcement job
 * reaches a process within KEY_CACHE_TTL_SECONDS.
 */
export function blockedAnswer(key: KeyRecord, request: { headers: IncomingHttpHeaders; url: string }, dashboardUrl: string): Refusal | null {
  const state = key.block?.state;
  if (state === undefined) return null;
  if (VOLUME_BLOCKS.has(state) && isUnbilledDevRequest(request)) return null;
  return ANSWER[state](dashboardUrl);
}
