/**
 * The road work of one solve, run on a SolverPool thread rather than the API's event loop: the
 * travel matrix over the request's places (a 200-place table takes seconds) and the polylines of
 * the used routes (each leg a route search). The network goes over as views of its shared memory
 * (engines/routing/workers/network-parts.ts); a worker keeps its views until the release closes
 * (and at most the last two it was sent).
 */
import { costModel } from '../routing/cost-model.ts';
import type { RoadNetwork } from '../routing/release.ts';
import { networkFromParts, networkParts, type NetworkParts } from '../routing/workers/network-parts.ts';
import type { LatLng } from './request-model.ts';
import { drawRoutePolylines } from './route-polylines.ts';
import { roadTravel, type RoadTravel } from './travel-road.ts';

export interface RoadTasks {
  travel: { places: LatLng[] };
  /** `deadline`: Date.now() past which no further leg is drawn. */
  polylines: { routes: LatLng[][]; deadline: number };
}

export interface RoadResults {
  travel: RoadTravel;
  polylines: (string | null)[];
}

export interface RoadTaskMessage {
  kind: keyof RoadTasks;
  input: RoadTasks[keyof RoadTasks];
  network: { key: number; parts: NetworkParts };
}

const partsOf = new WeakMap<RoadNetwork, { key: number; parts: NetworkParts }>();
let nextKey = 0;

/**
 * The network as posted to workers, made once per network object (its key tells workers it
 * apart); `onClose(key)` runs when its release closes, so the workers can let go of its views.
 */
export function roadTaskParts(network: RoadNetwork, onClose: (key: number) => void): { key: number; parts: NetworkParts } {
  let entry = partsOf.get(network);
  if (!entry) {
    const key = nextKey++;
    partsOf.set(network, (entry = { key, parts: networkParts(network) }));
    network.closed?.addEventListener('abort', () => onClose(key), { once: true });
  }
  return entry;
}

const KEEP = 2;
const networks = new Map<number, RoadNetwork>();

/** Worker side: forgets a closed release's views. */
export function dropRoadNetwork(key: number): void {
  networks.delete(key);
}

function networkOf(posted: RoadTaskMessage['network']): RoadNetwork {
  let network = networks.get(posted.key);
  if (!network) {
    network = networkFromParts(posted.parts);
    networks.set(posted.key, network);
    for (const key of networks.keys()) if (networks.size > KEEP) networks.delete(key);
  }
  return network;
}

/** One road task over a network, on the calling thread. */
export function roadTask<K extends keyof RoadTasks>(network: RoadNetwork, kind: K, input: RoadTasks[K]): RoadResults[K] {
  const model = costModel(network.graph, 'auto');
  if (kind === 'travel') return roadTravel(network, model, (input as RoadTasks['travel']).places) as RoadResults[K];
  const { routes, deadline } = input as RoadTasks['polylines'];
  return drawRoutePolylines(network, model, routes, deadline, Date.now) as RoadResults[K];
}

/** Worker side: runs one posted road task. */
export function runRoadTask(task: RoadTaskMessage): RoadResults[keyof RoadTasks] {
  return roadTask(networkOf(task.network), task.kind, task.input);
}
