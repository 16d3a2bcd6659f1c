import { createHash, hash } from 'node:crypto';
import { canonicalJson } from '../../lib/canonical-json.ts';
import type { KeyRecord } from '../../lib/keys.ts';
import type { OptimizationRequest, TravelSource } from '../optimization/request-model.ts';

/**
 * Optimization billing (volume 3, "Optimization", Billing 1–5): which performed shipments are
 * billed, the pure rules. The calls themselves are counted by the meter from the route's
 * X-Svc-Billable-Shipments header (metering.ts); this module decides that number. The billing
 * windows in Postgres: io/access/optimization-billed.ts; the account's room: io/access/account-allowance.ts.
 */

/** Billing 2: a re-solve within this long of the solve that first billed a shipment is free. */
export const BILLING_WINDOW_MS = 24 * 60 * 60 * 1000;

/** sha256 hex of a text (e.g. the canonical JSON of one part of an identity). */
export function digestOf(text: string): string {
  return hash('sha256', text, 'hex');
}

/**
 * The parts of one shipment's identity (Billing 3), each a canonical JSON string
 * (lib/canonical-json.ts) of the parsed request (engines/optimization/request-model.ts), so the
 * camelCase/snake_case spelling, enum names or integers and key order of the body do not matter:
 * - label: the shipment's label; absent (or '') for an unlabelled shipment.
 * - visitLocations: canonicalJson([pickup?.place ?? null, delivery?.place ?? null]): where it is
 *   picked up and delivered ({kind:'coordinates', latLng} or, with own matrices, {kind:'tags', src, dst}).
 * - content: canonicalJson of the whole parsed shipment but its label (used only without a label).
 * - matrixDigest: own matrices only: matrixDigestOf(request.travel), computed once per request.
 * - vehicleTags: own matrices only: canonicalJson(vehicles.map((v) => [v.startTags, v.endTags])).
 * shipmentIdentities(request) builds exactly these from a parsed request.
 */
export interface ShipmentIdentityParts {
  label?: string;
  visitLocations: string;
  content: string;
  matrixDigest?: string;
  vehicleTags?: string;
}

/** Billing 3 as a sha256 hex: label + visit locations, or else the whole content; plus matrices and vehicle tags when given. */
export function shipmentIdentity(input: ShipmentIdentityParts): string {
  const labelled = input.label !== undefined && input.label !== '';
  // A JSON array of strings is an unambiguous encoding of the parts; 'v1' names this scheme.
  return digestOf(JSON.stringify([
    'v1',
    labelled ? 'label' : 'content',
    labelled ? input.label : null,
    labelled ? input.visitLocations : input.content,
    input.matrixDigest ?? null,
    input.vehicleTags ?? null,
  ]));
}

/** sha256 hex of own matrices with their src/dst tags, fed row by row (a matrix may hold 1,000,000 cells). */
export function matrixDigestOf(travel: Extract<TravelSource, { kind: 'matrices' }>): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([travel.srcTags, travel.dstTags, travel.matrices.length]));
  for (const m of travel.matrices) {
    h.update(`\n${JSON.stringify(m.vehicleStartTag)}`);
    for (const row of m.durations) h.update(`\nd${JSON.stringify(row)}`);
    for (const row of m.meters) h.update(`\nm${JSON.stringify(row)}`);
  }
  return h.digest('hex');
}

/** The identity of every shipment of a parsed request, in request order (ignored ones too). */
export function shipmentIdentities(request: Pick<OptimizationRequest, 'shipments' | 'vehicles' | 'travel'>): string[] {
  const own = request.travel.kind === 'matrices'
    ? { matrixDigest: matrixDigestOf(request.travel), vehicleTags: canonicalJson(request.vehicles.map((v) => [v.startTags, v.endTags])) }
    : {};
  return request.shipments.map(({ label, ...content }) => shipmentIdentity({
    label,
    visitLocations: canonicalJson([content.pickup?.place ?? null, content.delivery?.place ?? null]),
    content: canonicalJson(content),
    ...own,
  }));
}

/** Who pays: the account, or `key:<id>` for a key without one (account ids cannot contain ':'). */
export function payerOf(key: Pick<KeyRecord, 'id' | 'accountId'>): string {
  return key.accountId ?? `key:${key.id}`;
}

/**
 * The calls a 200 solve is billed: its performed shipments whose identity recordBilled just
 * billed. Each performed shipment counts, so two identical shipments in one request are two calls.
 */
export function billedCount(performedIdentities: readonly string[], newlyBilled: readonly string[]): number {
  const billed = new Set(newlyBilled);
  return performedIdentities.reduce((n, id) => n + (billed.has(id) ? 1 : 0), 0);
}
