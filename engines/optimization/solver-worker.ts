/** Worker-thread entry of SolverPool: runs one search (or one road task) per message and posts its result back. */
import { parentPort } from 'node:worker_threads';
import type { Problem } from './problem.ts';
import { dropRoadNetwork, runRoadTask, type RoadTaskMessage } from './road-tasks.ts';
import { solveInProcess, type SearchOptions } from './solver/index.ts';

export type WorkerTask = { id: number } & ({ problem: Problem; options: SearchOptions } | { road: RoadTaskMessage });

/** A release closed: its network's views go (no answer is posted). */
export interface DropMessage {
  dropRoad: number;
}

parentPort?.on('message', (task: WorkerTask | DropMessage) => {
  if ('dropRoad' in task) return dropRoadNetwork(task.dropRoad);
  try {
    const result = 'road' in task ? runRoadTask(task.road) : solveInProcess(task.problem, task.options);
    parentPort!.postMessage({ id: task.id, result });
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: String((error as Error)?.stack ?? error) });
  }
});
parentPort?.postMessage({ ready: true });
