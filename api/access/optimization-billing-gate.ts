import type { FastifyBaseLogger } from 'fastify';
import { billedCount, payerOf, shipmentIdentities } from '../../engines/access/optimization-billing-rules.ts';
import { quotaRoom } from '../../io/access/account-allowance.ts';
import { firstBilledWithin24h, recordBilled } from '../../io/access/optimization-billed.ts';
import type { Queryable } from '../../io/access/usage.ts';
import { allowanceShortfall } from '../../engines/access/allowance-rule.ts';
import type { OptimizationRequest } from '../../engines/optimization/request-model.ts';
import type { KeyRecord } from '../../lib/keys.ts';
import { errors } from '../../lib/errors.ts';
import type { SolveSlotGate } from './solve-slot-gate.ts';

/**
 * The billing gate of one solve (volume 3, "Optimization", Billing and rule 8), for the route:
 *
 *   const ticket = await billing.admit(request.apiKey!, parsed, new Date(app.now()), request.log);
 *   try {
 *     ...travel, solve...
 *     reply.header(BILLABLE_SHIPMENTS_HEADER, String(await ticket.bill(performedIndices)));
 *   } finally { await ticket.release(); }
 *
 * Not for VALIDATE_ONLY (never billed: answer with the header `0` and skip the gate). Every
 * non-200 answer is free whatever its header says (the meter counts 0), so `bill` runs only once
 * the answer is known to be a 200.
 */
export interface SolveTicket {
  payer: string;
  /** shipmentIdentities(request): one per shipment, in request order. */
  identities: string[];
  /** Non-ignored shipments not billed in the last 24 hours: what the quota was checked against. */
  newShipments: number;
  /**
   * Bills the shipments performed by a 200 solve (indices into request.shipments; each once) and
   * returns the X-Svc-Billable-Shipments value: those not already billed within 24 hours.
   * `at` (default: admit's `now`, the request's time) is when their 24-hour window starts.
   */
  bill(performed: Iterable<number>, at?: Date): Promise<number>;
  /** Frees the solve slot; idempotent; call whatever the outcome. */
  release(): Promise<void>;
}

export interface OptimizationBillingDeps {
  db: Queryable;
  slots: SolveSlotGate;
  dashboardUrl: string;
}

export interface OptimizationBilling {
  /**
   * Before travel or solving: rejects with 429 quota_exceeded / spend_cap (status
   * RESOURCE_EXHAUSTED) when the new non-ignored shipments exceed the account's room, then with
   * 429 RESOURCE_EXHAUSTED when its solves at once are all running.
   */
  admit(key: KeyRecord, request: Pick<OptimizationRequest, 'shipments' | 'vehicles' | 'travel'>, now: Date, log: FastifyBaseLogger, identities?: string[]): Promise<SolveTicket>;
}

export function optimizationBilling({ db, slots, dashboardUrl }: OptimizationBillingDeps): OptimizationBilling {
  return {
    async admit(key, request, now, log, known) {
      const payer = payerOf(key);
      // `known`: shipmentIdentities(request) computed already (off the event loop, with the checks).
      const identities = known ?? shipmentIdentities(request);
      const wanted = identities.filter((_, i) => !request.shipments[i]!.ignore);
      const free = await firstBilledWithin24h(db, payer, wanted, now);
      const newShipments = wanted.filter((id) => !free.has(id)).length;
      const short = allowanceShortfall(await quotaRoom(db, key, now), newShipments);
      if (short !== null) throw errors.optimizationQuota(short, dashboardUrl);
      const release = await slots.enter(key, log);
      return {
        payer,
        identities,
        newShipments,
        async bill(performed, at = now) {
          const performedIds = [...new Set(performed)].map((i) => identities[i]!);
          return billedCount(performedIds, await recordBilled(db, payer, performedIds, at));
        },
        release,
      };
    },
  };
}
