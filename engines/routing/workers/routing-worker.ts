/**
 * Worker-thread entry of RoutingPool: keeps a network per release key (views over the shared
 * memory the pool posts once per release), runs one task per message and posts its result back.
 */
import { parentPort } from 'node:worker_threads';
import type { RoadNetwork } from '../release.ts';
import { networkFromParts, type NetworkParts } from './network-parts.ts';
import { runTask, type AnyTask } from './tasks.ts';

export type ToWorker =
  | { type: 'task'; id: number; release: number; parts?: NetworkParts; task: AnyTask }
  | { type: 'drop'; release: number };

export type FromWorker = { ready: true } | { id: number; result: unknown } | { id: number; error: string };

const networks = new Map<number, RoadNetwork>();

parentPort?.on('message', (message: ToWorker) => {
  if (message.type === 'drop') {
    networks.delete(message.release);
    return;
  }
  try {
    if (message.parts) networks.set(message.release, networkFromParts(message.parts));
    const network = networks.get(message.release);
    if (!network) throw new Error(`routing worker: release ${message.release} was not sent`);
    parentPort!.postMessage({ id: message.id, result: runTask(network, message.task) } satisfies FromWorker);
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: String((error as Error)?.stack ?? error) } satisfies FromWorker);
  }
});
parentPort?.postMessage({ ready: true } satisfies FromWorker);
