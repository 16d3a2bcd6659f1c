import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answerRoadEvents } from './respond.ts';
import { roadEventsSchema } from './route-schema.ts';
import type { RoadEventsCache } from './snapshot-cache.ts';

/** GET /closures: events with a road the publisher's road state says is CLOSED. */
export const closuresRoute: FastifyPluginAsyncTypebox<{ cache: RoadEventsCache }> = async (app, { cache }) => {
  app.get('/closures', {
    schema: roadEventsSchema('Roads actually shut', 'Events with at least one road whose publisher state is CLOSED; the event type never implies a closure.'),
  }, (request, reply) => answerRoadEvents(app, cache, 'closures', request.query, reply));
};
