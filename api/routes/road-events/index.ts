import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { closuresRoute } from './closures.ts';
import { incidentsRoute } from './incidents.ts';
import { roadConditionsRoute } from './road-conditions.ts';

/** The live road-event endpoints of volume 2, served from the snapshots the worker's polls store in Postgres. */
const plugin: FastifyPluginAsyncTypebox = async (app) => {
  app.services.roadEvents.onRefreshError((err) => app.log.warn({ err }, 'road events: could not refresh the snapshot from Postgres'));
  await app.register(incidentsRoute);
  await app.register(closuresRoute);
  await app.register(roadConditionsRoute);
};

export const roadEventsRoutes = fp(plugin, { name: 'canmap-road-events' });
