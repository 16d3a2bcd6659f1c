import type { ClosureSnapshot } from './closure.ts';
import { expandBBox } from './geometry.ts';
import { CLOSURE_JURISDICTIONS, type Jurisdiction } from './jurisdictions.ts';
import { isoUtc } from './publisher-time.ts';
import { lineGeometryMetres, RouteLine } from './route-line.ts';

/** Volume 3: a closure within 250 m of the path is worth a warning. */
export const CLOSURE_WARNING_METRES = 250;
/**
 * A closure snapshot older than this (three missed five-minute refreshes), or than three of its
 * feed's poll intervals when those are longer, is not current coverage.
 */
export const CLOSURE_SNAPSHOT_MAX_AGE_MS = 15 * 60_000;
const maxAgeMs = (pollIntervalMs: number | null) => Math.max(CLOSURE_SNAPSHOT_MAX_AGE_MS, 3 * (pollIntervalMs ?? 0));

export interface RouteClosure {
  jurisdiction: Jurisdiction;
  sourceId: string;
  road: string | null;
  direction: string | null;
  description: string;
  /** Shortest distance between the path and the closed road, whole metres. */
  distanceMeters: number;
  /** ISO 8601 UTC: when the closure starts (scheduled) or started (in force; null when not published). */
  effectiveFrom: string | null;
  /** ISO 8601 UTC end of that closure window; null when open-ended. */
  until: string | null;
  /** When the snapshot holding it was fetched. */
  fetchedAt: string;
}

export interface ClosuresNearRoute {
  /** Shut now, nearest first: CLOSURE_IN_FORCE_NEAR_ROUTE. */
  inForce: RouteClosure[];
  /** Shut later, soonest first: CLOSURE_SCHEDULED_NEAR_ROUTE with effectiveFrom. */
  scheduled: RouteClosure[];
  /** What was checked: per province, the snapshot time and whether it is recent enough to rely on. */
  coverage: { jurisdiction: Jurisdiction; fetchedAt: string | null; current: boolean }[];
}

/**
 * The closures of a snapshot within `withinMetres` (250) of a route's line: those in force at
 * `now`, and those whose next window starts later, with effectiveFrom. The stored boxes narrow the
 * closures, then exact great-circle distances between the path's segments and the closure's
 * geometry decide.
 */
export function closuresNearLine(
  snapshot: ClosureSnapshot,
  line: RouteLine,
  options: { now?: Date; withinMetres?: number } = {},
): ClosuresNearRoute {
  const now = (options.now ?? new Date()).getTime();
  const within = options.withinMetres ?? CLOSURE_WARNING_METRES;
  const box = expandBBox(line.bbox, within);
  const inForce: (RouteClosure & { order: number })[] = [];
  const scheduled: (RouteClosure & { order: number })[] = [];
  for (const stored of snapshot.closures) {
    const { bbox } = stored;
    if (bbox.maxLon < box.minLon || bbox.minLon > box.maxLon || bbox.maxLat < box.minLat || bbox.minLat > box.maxLat) continue;
    const distance = lineGeometryMetres(line, stored.geometry, within);
    if (distance === Infinity) continue;
    const { windows } = stored;
    const current = windows.find(([start, end]) => (start === null || start <= now) && (end === null || end > now));
    const next = current ? undefined : windows.filter(([start]) => start !== null && start > now).sort((a, b) => a[0]! - b[0]!)[0];
    const window = current ?? next;
    if (!window) continue;
    const closure = {
      jurisdiction: stored.jurisdiction,
      sourceId: stored.sourceId,
      road: stored.road,
      direction: stored.direction,
      description: stored.description,
      distanceMeters: Math.round(distance),
      effectiveFrom: window[0] === null ? null : isoUtc(window[0]),
      until: window[1] === null ? null : isoUtc(window[1]),
      fetchedAt: stored.fetchedAt,
    };
    if (current) inForce.push({ ...closure, order: distance });
    else scheduled.push({ ...closure, order: window[0]! });
  }
  const strip = (list: (RouteClosure & { order: number })[]) =>
    list.sort((a, b) => a.order - b.order || a.distanceMeters - b.distanceMeters || a.sourceId.localeCompare(b.sourceId)).map(({ order: _, ...c }) => c);
  const byJurisdiction = new Map(snapshot.statuses.map((s) => [s.jurisdiction, s]));
  return {
    inForce: strip(inForce),
    scheduled: strip(scheduled),
    coverage: CLOSURE_JURISDICTIONS.map((jurisdiction) => {
      const status = byJurisdiction.get(jurisdiction);
      const fetched = status?.lastSuccessAt ?? null;
      return {
        jurisdiction,
        fetchedAt: fetched ? isoUtc(fetched.getTime()) : null,
        current: fetched !== null && now - fetched.getTime() <= maxAgeMs(status!.pollIntervalMs),
      };
    }),
  };
}
