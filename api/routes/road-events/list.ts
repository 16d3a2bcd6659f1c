import type { EventList } from '../../../engines/road-events/select.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import type { RoadEventsQuery } from '../../../schemas/road-events-api.ts';
import type { Services } from '../../../services/index.ts';
import { checkRoadEventsQuery } from '../../params/road-events.ts';

/**
 * The answer of /incidents, /closures or /road-conditions (`list`: EVENT_LISTS.all, .closures,
 * .surface) for a validated query: the JSON bytes of {data, meta} the road-events service made.
 * Every front door's; a bad filter is the 400 naming it, no usable snapshot the 503.
 */
export async function listRoadEvents(services: Services, list: EventList, query: RoadEventsQuery): Promise<Buffer> {
  return services.roadEvents.list(list, valueOrThrow(checkRoadEventsQuery(query)));
}
