import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENT_LISTS } from '../../../engines/road-events/select.ts';
import { roadEventsRouteSchema } from '../../../schemas/road-events-api.ts';
import { sendRoadEvents } from '../../replies/road-events.ts';
import { listRoadEvents } from './list.ts';

export const closuresRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/closures', {
    schema: roadEventsRouteSchema('Roads actually shut',
      'Events with at least one road whose publisher state is CLOSED (the event type never implies a closure), ' +
      'in force now unless `status` asks for others (status=planned: scheduled closures).'),
  }, async (request, reply) => sendRoadEvents(reply, await listRoadEvents(app.services, EVENT_LISTS.closures, request.query)));
};
