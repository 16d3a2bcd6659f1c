/**
 * Worker-thread entry of RoutingPool: keeps a network per release key (views over the shared
 * memory the pool posts once per release), runs one task per message and posts its result back.
 */
import { parentPort } from 'node:worker_threads';
import type { RoadNetwork } from '../release.ts';
import { networkFromParts, type NetworkParts } from './network-parts.ts';
import { runTask, type AnyTask, type RoutingResults } from './tasks.ts';

export type ToWorker =
  | { type: 'task'; id: number; release: number; parts?: NetworkParts; task: AnyTask }
  | { type: 'drop'; release: number };

export type FromWorker = { ready: true } | { id: number; result: unknown } | { id: number; error: string };

const networks = new Map<number, RoadNetwork>();

/**
 * The buffers the result may hand over instead of copying: a route's line (a national one is
 * ~9,000 positions), which routeLineMicro allocates for each call and nothing here keeps.
 */
function transferable(task: AnyTask, result: unknown): ArrayBuffer[] {
  if (task.kind !== 'route' || result === null) return [];
  const buffer = (result as NonNullable<RoutingResults['route']>).route.line.buffer;
  return buffer instanceof ArrayBuffer ? [buffer] : [];
}

parentPort?.on('message', (message: ToWorker) => {
  if (message.type === 'drop') {
    networks.delete(message.release);
    return;
  }
  try {
    if (message.parts) networks.set(message.release, networkFromParts(message.parts));
    const network = networks.get(message.release);
    if (!network) throw new Error(`routing worker: release ${message.release} was not sent`);
    const result = runTask(network, message.task);
    parentPort!.postMessage({ id: message.id, result } satisfies FromWorker, transferable(message.task, result));
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: String((error as Error)?.stack ?? error) } satisfies FromWorker);
  }
});
parentPort?.postMessage({ ready: true } satisfies FromWorker);
