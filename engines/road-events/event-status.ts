import type { EventStatus, PublisherStatus } from './mapping.ts';
import { scheduleStateAt, type Schedule } from './schedule.ts';

export interface StatusSpan {
  status: EventStatus;
  /** The status holds from fromMs until untilMs (exclusive). */
  fromMs: number;
  untilMs: number;
}

const BY_STATE = { in_force: 'active', upcoming: 'planned', ended: 'archived' } as const;

/**
 * An event's volume 2 status at `nowMs`, the one rule the API and the tests use: `archived` when
 * the publisher says ARCHIVED or the schedule has ended; `active` while it is in force (inside an
 * interval or, for recurring schedules, inside one of their windows); `planned` while its next
 * window starts later. Returned with the span over which it holds, so a cache recomputes it only
 * when the clock leaves that span.
 */
export function eventStatusSpan(publisherStatus: PublisherStatus, schedule: Schedule, nowMs: number): StatusSpan {
  if (publisherStatus === 'archived') return { status: 'archived', fromMs: -Infinity, untilMs: Infinity };
  const { state, fromMs, untilMs } = scheduleStateAt(schedule, nowMs);
  return { status: BY_STATE[state], fromMs, untilMs };
}

export const eventStatus = (publisherStatus: PublisherStatus, schedule: Schedule, nowMs: number): EventStatus =>
  eventStatusSpan(publisherStatus, schedule, nowMs).status;
