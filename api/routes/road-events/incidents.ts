import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENT_LISTS } from '../../../engines/road-events/select.ts';
import { roadEventsRouteSchema } from '../../../schemas/road-events-api.ts';
import { answerRoadEvents } from '../../replies/road-events.ts';

export const incidentsRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/incidents', {
    schema: roadEventsRouteSchema('All current road events',
      'Every event the publisher lists now: active (in force now), planned (a window starts later) and archived.'),
  }, (request, reply) => answerRoadEvents(app, EVENT_LISTS.all, request.query, reply));
};
