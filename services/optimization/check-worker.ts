/** Worker-thread entry of CheckPool: checks one /optimize body per message and posts the result back. */
import { parentPort } from 'node:worker_threads';
import { checkBody, type BodyCheckOptions } from './check-body.ts';

export interface CheckTask {
  id: number;
  body: unknown;
  options: BodyCheckOptions;
}

parentPort?.on('message', (task: CheckTask) => {
  try {
    parentPort!.postMessage({ id: task.id, result: checkBody(task.body, task.options) });
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: String((error as Error)?.stack ?? error) });
  }
});
