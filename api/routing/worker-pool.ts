/**
 * Built-in road routing through the routing worker pool (engines/routing/workers/): the handler's
 * checked input goes to a worker, the engine's result comes back. A task past
 * ROUTING_TIME_BUDGET_MS, a full queue or a closed pool answer 503 `routing temporarily
 * unavailable` with Retry-After 5 (volume 1, 503 variant 1); a client that goes away cancels its task.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { RoutingAbortError, RoutingBudgetError, RoutingPoolBusyError } from '../../engines/routing/workers/errors.ts';
import type { RoutingResults, RoutingTasks, TaskKind } from '../../engines/routing/workers/tasks.ts';
import { errors } from '../../lib/errors.ts';

export async function onRoutingWorker<K extends TaskKind>(
  app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, network: RoadNetwork, kind: K, input: RoutingTasks[K],
): Promise<RoutingResults[K]> {
  const gone = new AbortController();
  // 'close' before the answer is written: the client went away.
  const onClose = () => {
    if (!reply.raw.writableEnded) gone.abort();
  };
  reply.raw.once('close', onClose);
  const endpoint = request.routeOptions.url ?? kind;
  try {
    return await app.routingPool().run(network, kind, input, gone.signal);
  } catch (err) {
    if (err instanceof RoutingBudgetError) {
      request.log.warn({ endpoint, elapsedMs: Math.round(err.elapsedMs), stage: err.stage, budgetMs: app.config.routingTimeBudgetMs },
        `${endpoint}: routing over its time budget (${err.stage}); answered 503`);
      throw errors.serviceUnavailable('routing');
    }
    if (err instanceof RoutingPoolBusyError) {
      request.log.warn({ endpoint, err }, `${endpoint}: routing pool busy; answered 503`);
      throw errors.serviceUnavailable('routing');
    }
    if (err instanceof RoutingAbortError) {
      request.log.info({ endpoint }, `${endpoint}: client went away; routing task cancelled`);
      throw errors.serviceUnavailable('routing');
    }
    throw err;
  } finally {
    reply.raw.removeListener('close', onClose);
  }
}
