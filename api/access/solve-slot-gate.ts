import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { createSolveSlots, type SolveSlots } from '../../io/access/solve-slot-leases.ts';
import type { KeyRecord } from '../../lib/keys.ts';
import { optimizationLimitsOf } from '../../schemas/plans.ts';
import { errors } from '../../lib/errors.ts';
import { payerOf } from '../../engines/access/optimization-billing-rules.ts';

export type ReleaseSlot = () => Promise<void>;

export interface SolveSlotGate {
  /**
   * Takes one of the key's payer's solve slots (plan's solvesAtOnce; keys without an account:
   * growth's) and resolves with its release, or rejects with 429 RESOURCE_EXHAUSTED and
   * Retry-After. Fails open: when Redis does not answer the solve runs unlimited (warning logged),
   * as the rate limit does.
   */
  enter(key: KeyRecord, log: FastifyBaseLogger): Promise<ReleaseSlot>;
}

const NOTHING_HELD: ReleaseSlot = async () => {};

/** `slots` null (an app built without Redis, as in tests of other concerns): no limit. */
export function createSolveSlotGate(slots: SolveSlots | null): SolveSlotGate {
  return {
    async enter(key, log) {
      if (slots === null) return NOTHING_HELD;
      const limit = optimizationLimitsOf(key.plan).solvesAtOnce;
      let slot;
      try {
        slot = await slots.acquire(payerOf(key), limit);
      } catch (err) {
        log.warn({ err }, 'solve slots not enforced: Redis did not answer, so the solve runs unlimited');
        return NOTHING_HELD;
      }
      if (!slot.ok) throw errors.solveSlotsBusy(slot.retryAfterSeconds, limit);
      return slot.release;
    },
  };
}

/** The gate of an app: on the API's Redis connection and REDIS_PREFIX; none without Redis. */
export function solveSlotGateFor(redis: Redis | undefined, prefix: string): SolveSlotGate {
  return createSolveSlotGate(redis === undefined ? null : createSolveSlots({ redis, prefix }));
}
