import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENT_LISTS } from '../../../engines/road-events/select.ts';
import { roadEventsRouteSchema } from '../../../schemas/road-events-api.ts';
import { answerRoadEvents } from '../../replies/road-events.ts';

export const roadConditionsRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/road-conditions', {
    schema: roadEventsRouteSchema('Road surface conditions',
      'Events carrying a surface condition (ice, snow, mud, gravel, ... from the event subtypes).'),
  }, (request, reply) => answerRoadEvents(app, EVENT_LISTS.surface, request.query, reply));
};
