import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { optimizeRoute } from './optimize.ts';

/** Fleet optimization of volume 3: POST /optimize and its four alias paths. */
const plugin: FastifyPluginAsyncTypebox = async (app) => {
  // The facade's check and solver worker threads start at the first large body / solve.
  app.addHook('onClose', async () => {
    await app.services.optimization.close();
  });
  await app.register(optimizeRoute);
};

export const optimizationRoutes = fp(plugin, { name: 'canmap-optimization' });
