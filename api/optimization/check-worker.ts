/** Worker-thread entry of CheckPool: checks one /optimize body per message and posts the result back. */
import { parentPort } from 'node:worker_threads';
import { shipmentIdentities } from '../../engines/access/optimization-billing.ts';
import { checkOptimizationRequest, type CheckOptions } from '../params/optimization/check.ts';

export interface CheckTask {
  id: number;
  body: unknown;
  options: CheckOptions;
}

parentPort?.on('message', (task: CheckTask) => {
  try {
    const checked = checkOptimizationRequest(task.body, task.options);
    const identities = checked.request && checked.solvingMode !== 'VALIDATE_ONLY' ? shipmentIdentities(checked.request) : null;
    parentPort!.postMessage({ id: task.id, result: { checked, identities } });
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: String((error as Error)?.stack ?? error) });
  }
});
