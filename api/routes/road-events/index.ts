import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { RoadEventsCache } from '../../../engines/road-events/snapshot-cache.ts';
import { closuresRoute } from './closures.ts';
import { incidentsRoute } from './incidents.ts';
import { roadConditionsRoute } from './road-conditions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API's copy of the road-event snapshots (tests invalidate it right after a poll). */
    roadEventsCache: RoadEventsCache;
  }
}

/** The live road-event endpoints of volume 2, served from the snapshots the worker's polls store in Postgres. */
const plugin: FastifyPluginAsyncTypebox = async (app) => {
  app.decorate('roadEventsCache', new RoadEventsCache(app.pg, (err) => app.log.warn({ err }, 'road events: could not refresh the snapshot from Postgres')));
  await app.register(incidentsRoute);
  await app.register(closuresRoute);
  await app.register(roadConditionsRoute);
};

export const roadEventsRoutes = fp(plugin, { name: 'canmap-road-events' });
