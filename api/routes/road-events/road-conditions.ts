import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENT_LISTS } from '../../../engines/road-events/select.ts';
import { roadEventsRouteSchema } from '../../../schemas/road-events-api.ts';
import { sendRoadEvents } from '../../replies/road-events.ts';
import { listRoadEvents } from './list.ts';

export const roadConditionsRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/road-conditions', {
    schema: roadEventsRouteSchema('Road surface conditions',
      'Events carrying a surface condition (ice, snow, mud, gravel, ... from the event subtypes).'),
  }, async (request, reply) => sendRoadEvents(reply, await listRoadEvents(app.services, EVENT_LISTS.surface, request.query)));
};
