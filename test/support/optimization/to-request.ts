/**
 * A benchmark instance as an Optimization request (the OptimizeToursRequest JSON of volume 3)
 * with its own matrices: Euclidean distances in double precision, travel seconds equal to the
 * distance (the literature's convention), stops placed by tags ("depot", "n<node id>").
 */
import type { Instance } from './instances.ts';
import { euclid } from './instances.ts';
import { seededRandom } from '../../../lib/seeded-random.ts';

export type Objective = 'distance' | 'vehicles';
export const OBJECTIVES: readonly Objective[] = ['distance', 'vehicles'];

/** Fixed cost per used vehicle under the 'vehicles' objective: above any instance's total distance. */
export const VEHICLE_FIXED_COST = 1e6;

export interface RequestOptions {
  objective: Objective;
  /** 0 or absent: instance order. Otherwise a seeded permutation of the shipments. */
  shuffle?: number;
  /** e.g. "30s"; absent: the API's default budget. */
  timeout?: string;
  /** Absent: the API's default, RETURN_FAST. */
  searchMode?: 'RETURN_FAST' | 'CONSUME_ALL_AVAILABLE_TIME';
}

export interface BenchRequest {
  body: Record<string, unknown>;
  /** order[i] = index of request shipment i in the instance order (shipments of unshuffled requests). */
  order: number[];
  /** Instance node(s) of each unshuffled shipment: [delivery] for VRPTW, [pickup, delivery] for Li–Lim. */
  shipmentNodes: number[][];
}

const EPOCH = '1970-01-01T00:00:00Z';

/** Seconds as a Duration string with the full double precision ("18.681541692269406s"). */
export const seconds = (s: number): string => `${s}s`;

/** Seconds from 1970-01-01T00:00:00Z as an RFC 3339 UTC timestamp (windows are whole seconds here). */
export function timestamp(s: number): string {
  if (!Number.isInteger(s)) throw new Error(`window bound ${s} is not a whole second`);
  return new Date(s * 1000).toISOString().replace('.000Z', 'Z');
}

export const tagOf = (node: number): string => (node === 0 ? 'depot' : `n${node}`);

export function permutation(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  if (!seed) return order;
  const rnd = seededRandom(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Instance shipments in instance order: each customer (VRPTW) or each pickup–delivery pair (Li–Lim). */
export function shipmentNodesOf(inst: Instance): number[][] {
  if (inst.pairs.length > 0) return inst.pairs.map(([p, d]) => [p, d]);
  return inst.nodes.slice(1).map((n) => [n.id]);
}

export function toRequest(inst: Instance, opts: RequestOptions): BenchRequest {
  const depot = inst.nodes[0]!;
  const tags = inst.nodes.map((n) => tagOf(n.id));
  const rows = inst.nodes.map((_, a) => {
    const d = inst.nodes.map((__, b) => euclid(inst, a, b));
    return { durations: d.map(seconds), meters: d };
  });
  const stop = (node: number) => {
    const n = inst.nodes[node]!;
    return {
      tags: [tagOf(node)],
      duration: seconds(n.service),
      timeWindows: [{ startTime: timestamp(n.ready), endTime: timestamp(n.due) }],
    };
  };
  const shipmentNodes = shipmentNodesOf(inst);
  const shipments = shipmentNodes.map((nodes) => {
    const amount = Math.abs(inst.nodes[nodes[0]!]!.demand);
    return {
      label: nodes.map(tagOf).join('-'),
      ...(nodes.length === 2 ? { pickups: [stop(nodes[0]!)], deliveries: [stop(nodes[1]!)] } : { deliveries: [stop(nodes[0]!)] }),
      loadDemands: { units: { amount } },
    };
  });
  const order = permutation(shipments.length, opts.shuffle ?? 0);
  const window = [{ startTime: timestamp(depot.ready), endTime: timestamp(depot.due) }];
  const vehicle = {
    startTags: ['depot'],
    endTags: ['depot'],
    startTimeWindows: window,
    endTimeWindows: window,
    loadLimits: { units: { maxLoad: inst.capacity } },
    // 1000 per kilometre with metres equal to the Euclidean length: the cost is the distance.
    costPerKilometer: 1000,
    ...(opts.objective === 'vehicles' ? { fixedCost: VEHICLE_FIXED_COST } : {}),
  };
  const body: Record<string, unknown> = {
    label: `${inst.name}/${opts.objective}${opts.shuffle ? `/shuffle${opts.shuffle}` : ''}`,
    ...(opts.timeout ? { timeout: opts.timeout } : {}),
    ...(opts.searchMode ? { searchMode: opts.searchMode } : {}),
    model: {
      globalStartTime: EPOCH,
      globalEndTime: timestamp(depot.due),
      shipments: order.map((i) => shipments[i]!),
      vehicles: Array.from({ length: inst.vehicles }, (_, i) => ({ label: `v${i}`, ...vehicle })),
      durationDistanceMatrices: [{ rows }],
      durationDistanceMatrixSrcTags: tags,
      durationDistanceMatrixDstTags: tags,
    },
  };
  return { body, order, shipmentNodes };
}

/**
 * A route's instance-order shipment indices, so routes of shuffled requests compare with the
 * unshuffled ones: sequence of instance nodes visited per used vehicle, sorted.
 */
export function canonicalRoutes(req: BenchRequest, response: { routes?: { visits?: { shipmentIndex?: number; isPickup?: boolean }[] }[] }): number[][] {
  const routes = (response.routes ?? [])
    .map((r) => (r.visits ?? []).map((v) => {
      const nodes = req.shipmentNodes[req.order[v.shipmentIndex ?? 0]!]!;
      return v.isPickup ? nodes[0]! : nodes[nodes.length - 1]!;
    }))
    .filter((r) => r.length > 0);
  return routes.sort((a, b) => a[0]! - b[0]!);
}
