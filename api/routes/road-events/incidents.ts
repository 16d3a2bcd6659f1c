import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENT_LISTS } from '../../../engines/road-events/select.ts';
import { roadEventsRouteSchema } from '../../../schemas/road-events-api.ts';
import { sendRoadEvents } from '../../replies/road-events.ts';
import { listRoadEvents } from './list.ts';

export const incidentsRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/incidents', {
    schema: roadEventsRouteSchema('All current road events',
      'Every event the publisher lists now: active (in force now), planned (a window starts later) and archived.'),
  }, async (request, reply) => sendRoadEvents(reply, await listRoadEvents(app.services, EVENT_LISTS.all, request.query)));
};
