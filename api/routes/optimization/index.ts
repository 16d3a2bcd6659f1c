import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { SolverPool } from '../../../engines/optimization/solver-pool.ts';
import { CheckPool } from '../../optimization/check-pool.ts';
import { optimizeRoute } from './optimize.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The solver's worker threads (two: one solve uses both cores), started at the first solve. */
    solverPool: () => SolverPool;
    /** The worker thread that checks large bodies, started at the first one. */
    optimizationChecks: CheckPool;
  }
}

/** Fleet optimization of volume 3: POST /optimize and its four alias paths. */
const plugin: FastifyPluginAsyncTypebox = async (app) => {
  let pool: SolverPool | null = null;
  app.decorate('solverPool', () => (pool ??= new SolverPool(2)));
  const checks = new CheckPool();
  app.decorate('optimizationChecks', checks);
  app.addHook('onClose', async () => {
    await pool?.close();
    await checks.close();
  });
  await app.register(optimizeRoute);
};

export const optimizationRoutes = fp(plugin, { name: 'canmap-optimization' });
