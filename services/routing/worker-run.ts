/**
 * Built-in road routing through the routing worker pool (engines/routing/workers/): the checked
 * input goes to a worker, the engine's result comes back. A task past ROUTING_TIME_BUDGET_MS, a
 * full queue or a closed pool answer 503 `routing temporarily unavailable` with Retry-After 5
 * (volume 1, 503 variant 1); a client that goes away cancels its task.
 */
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { RoutingAbortError, RoutingBudgetError, RoutingPoolBusyError } from '../../engines/routing/workers/errors.ts';
import type { RoutingPool } from '../../engines/routing/workers/routing-pool.ts';
import type { RoutingResults, RoutingTasks, TaskKind } from '../../engines/routing/workers/tasks.ts';
import { errors } from '../../lib/errors.ts';
import type { RoutingCall } from './call.ts';

export async function runOnWorker<K extends TaskKind>(
  pool: RoutingPool, budgetMs: number, call: RoutingCall, network: RoadNetwork, kind: K, input: RoutingTasks[K],
): Promise<RoutingResults[K]> {
  const { endpoint, log } = call;
  try {
    return await pool.run(network, kind, input, call.signal);
  } catch (err) {
    if (err instanceof RoutingBudgetError) {
      log.warn({ endpoint, elapsedMs: Math.round(err.elapsedMs), stage: err.stage, budgetMs },
        `${endpoint}: routing over its time budget (${err.stage}); answered 503`);
      throw errors.serviceUnavailable('routing');
    }
    if (err instanceof RoutingPoolBusyError) {
      log.warn({ endpoint, err }, `${endpoint}: routing pool busy; answered 503`);
      throw errors.serviceUnavailable('routing');
    }
    if (err instanceof RoutingAbortError) {
      log.info({ endpoint }, `${endpoint}: client went away; routing task cancelled`);
      throw errors.serviceUnavailable('routing');
    }
    throw err;
  }
}
