import type { EventStatus } from '../../../engines/road-events/mapping.ts';

/** One of the three road-event endpoints: same parameters and answers, different base lists. */
export interface RoadEventsEndpoint {
  path: '/incidents' | '/closures' | '/road-conditions';
  summary: string;
  description: string;
  /** Only events with a road whose state is CLOSED, or only events stating a surface; null: every event. */
  only: 'closed' | 'surface' | null;
  /** The statuses listed when the request names none; null: every status. */
  defaultStatuses: ReadonlySet<EventStatus> | null;
}

export const ROAD_EVENT_ENDPOINTS: readonly RoadEventsEndpoint[] = [
  {
    path: '/incidents',
    summary: 'All current road events',
    description: 'Every event the publisher lists now: active (in force now), planned (a window starts later) and archived.',
    only: null,
    defaultStatuses: null,
  },
  {
    path: '/closures',
    summary: 'Roads actually shut',
    description: 'Events with at least one road whose publisher state is CLOSED (the event type never implies a closure), ' +
      'in force now unless `status` asks for others (status=planned: scheduled closures).',
    only: 'closed',
    defaultStatuses: new Set(['active']),
  },
  {
    path: '/road-conditions',
    summary: 'Road surface conditions',
    description: 'Events carrying a surface condition (ice, snow, mud, gravel, ... from the event subtypes).',
    only: 'surface',
    defaultStatuses: null,
  },
];
