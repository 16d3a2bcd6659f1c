import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answerRoadEvents } from './respond.ts';
import { roadEventsSchema } from './route-schema.ts';
import type { RoadEventsCache } from './snapshot-cache.ts';

/** GET /incidents: every current road event. */
export const incidentsRoute: FastifyPluginAsyncTypebox<{ cache: RoadEventsCache }> = async (app, { cache }) => {
  app.get('/incidents', {
    schema: roadEventsSchema('All current road events', 'Every event the publisher lists now: active, planned and archived as published.'),
  }, (request, reply) => answerRoadEvents(app, cache, 'incidents', request.query, reply));
};
