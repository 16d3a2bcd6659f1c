import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { ROAD_EVENT_ENDPOINTS } from './endpoints.ts';
import { answerRoadEvents } from '../../replies/road-events.ts';
import { roadEventsSchema } from './route-schema.ts';
import { RoadEventsCache } from '../../../engines/road-events/snapshot-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API's copy of the road-event snapshots (tests invalidate it right after a poll). */
    roadEventsCache: RoadEventsCache;
  }
}

/**
 * The live road-event endpoints of volume 2 (endpoints.ts), served from the snapshots the
 * worker's polls store in Postgres.
 */
const plugin: FastifyPluginAsyncTypebox = async (app) => {
  const cache = new RoadEventsCache(app.pg, (err) => app.log.warn({ err }, 'road events: could not refresh the snapshot from Postgres'));
  app.decorate('roadEventsCache', cache);
  for (const endpoint of ROAD_EVENT_ENDPOINTS) {
    app.get(endpoint.path, { schema: roadEventsSchema(endpoint.summary, endpoint.description) },
      (request, reply) => answerRoadEvents(app, cache, endpoint, request.query, reply));
  }
};

export const roadEventsRoutes = fp(plugin, { name: 'canmap-road-events' });
