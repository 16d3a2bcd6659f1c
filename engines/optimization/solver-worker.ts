/** Worker-thread entry of SolverPool: runs one search per message and posts its Solution back. */
import { parentPort } from 'node:worker_threads';
import type { Problem } from './problem.ts';
import { solveInProcess, type SearchOptions } from './solver/index.ts';

export interface WorkerTask {
  id: number;
  problem: Problem;
  options: SearchOptions;
}

parentPort?.on('message', (task: WorkerTask) => {
  try {
    const solution = solveInProcess(task.problem, task.options);
    parentPort!.postMessage({ id: task.id, solution });
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: String((error as Error)?.stack ?? error) });
  }
});
parentPort?.postMessage({ ready: true });
