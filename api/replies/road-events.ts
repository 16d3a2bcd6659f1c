import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RoadEventsQuery } from '../../schemas/road-events-api.ts';
import type { EventList } from '../../engines/road-events/select.ts';
import { valueOrThrow } from '../../lib/checked.ts';
import { checkRoadEventsQuery } from '../params/road-events.ts';

/** Edge caching of a 200 (volume 2: polled live behind a 60-second edge cache). */
export const CACHE_CONTROL = 'public, max-age=60';

/**
 * The shared body of /incidents, /closures and /road-conditions: check the filters, ask the
 * road-events service for the answer's bytes and send them as they are (no serializer runs; the
 * route's response schema documents the answer and the tests check answers against it).
 */
export async function answerRoadEvents(app: FastifyInstance, list: EventList, query: RoadEventsQuery, reply: FastifyReply) {
  const body = await app.services.roadEvents.list(list, valueOrThrow(checkRoadEventsQuery(query)));
  return reply
    .header('cache-control', CACHE_CONTROL)
    .type('application/json; charset=utf-8')
    .send(body);
}
