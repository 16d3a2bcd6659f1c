import type { NormalizedEvent } from '../normalize-open511.ts';
import { scheduleWindows } from '../../../engines/road-events/schedule.ts';
import { CLOSURE_HORIZON_MS, type Closure } from '../../../engines/road-events/closure.ts';

/**
 * A BC closure: an active Open511 event with a road whose state is CLOSED (nothing else counts).
 * Its windows are the schedule's, from a day before `fetchedMs` to the horizon; an event whose
 * schedule has ended has none and is not stored.
 */
export function closureFromOpen511(event: NormalizedEvent, fetchedMs: number): Closure | null {
  if (!event.closed || event.publisherStatus !== 'active') return null;
  const windows = scheduleWindows(event.schedule, fetchedMs, fetchedMs + CLOSURE_HORIZON_MS);
  if (!windows.length) return null;
  const shut = event.roads.filter((r) => r.closed);
  const unique = (values: string[]) => [...new Set(values.filter((v) => v !== ''))];
  return {
    jurisdiction: event.jurisdiction as Closure['jurisdiction'],
    sourceId: event.sourceId,
    road: unique(shut.map((r) => r.name)).join('; ') || null,
    direction: unique(shut.map((r) => r.direction)).join('; ') || null,
    description: event.description,
    windows,
    geometry: event.geometry,
    bbox: event.bbox,
    sourceUpdatedAt: event.sourceUpdatedAt.iso,
  };
}
