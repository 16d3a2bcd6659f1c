import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answerRoadEvents } from './respond.ts';
import { roadEventsSchema } from './route-schema.ts';
import type { RoadEventsCache } from './snapshot-cache.ts';

/** GET /road-conditions: events whose subtypes state a road surface. */
export const roadConditionsRoute: FastifyPluginAsyncTypebox<{ cache: RoadEventsCache }> = async (app, { cache }) => {
  app.get('/road-conditions', {
    schema: roadEventsSchema('Road surface conditions', 'Events carrying a surface condition (ice, snow, mud, gravel, ... from the event subtypes).'),
  }, (request, reply) => answerRoadEvents(app, cache, 'road-conditions', request.query, reply));
};
