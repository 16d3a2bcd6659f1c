import { pointsBBox, decodePolyline, type LngLatPosition, type RoadGeometry } from '../../../engines/road-events/geometry.ts';
import type { JurisdictionInfo } from '../../../engines/road-events/jurisdictions.ts';
import type { DroppedEvent } from '../normalize-open511.ts';
import { isoUtc } from '../../../engines/road-events/publisher-time.ts';
import type { Closure } from '../../../engines/road-events/closure.ts';

export type From511 = { kind: 'closure'; closure: Closure } | { kind: 'open' } | { kind: 'invalid'; dropped: DroppedEvent };

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const unixMs = (v: unknown): number | null => (finite(v) && v > 0 ? v * 1000 : null);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function position(lat: unknown, lon: unknown): LngLatPosition | null {
  return finite(lat) && finite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0) ? [lon, lat] : null;
}

/** The road's shape: the encoded polyline when it decodes, else the start point (and end point, when given). */
function geometryOf(e: Record<string, unknown>): RoadGeometry | null {
  const encoded = text(e.EncodedPolyline);
  const line = encoded ? decodePolyline(encoded) : null;
  if (line && line.length >= 2) return { type: 'LineString', coordinates: line };
  const start = position(e.Latitude, e.Longitude);
  const end = position(e.LatitudeSecondary, e.LongitudeSecondary);
  if (start && end) return { type: 'MultiPoint', coordinates: [start, end] };
  if (start) return { type: 'Point', coordinates: start };
  return null;
}

/**
 * One event of a 511 platform's `api/v2/get/event` answer (Alberta, Ontario). Only
 * `IsFullClosure: true` makes a closure; EventType "closures" alone does not. StartDate and
 * PlannedEndDate are Unix seconds (an absent or zero end is open-ended).
 */
export function closureFrom511(raw: unknown, index: number, info: JurisdictionInfo): From511 {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { kind: 'invalid', dropped: { index, sourceId: null, reason: 'event is not a JSON object' } };
  const e = raw as Record<string, unknown>;
  if (e.IsFullClosure !== true) return { kind: 'open' };
  const sourceId = typeof e.ID === 'string' ? e.ID.trim() : finite(e.ID) ? String(e.ID) : '';
  if (!sourceId) return { kind: 'invalid', dropped: { index, sourceId: null, reason: 'ID is missing' } };
  const geometry = geometryOf(e);
  if (!geometry) return { kind: 'invalid', dropped: { index, sourceId, reason: 'no EncodedPolyline and no valid Latitude/Longitude' } };
  const start = unixMs(e.StartDate);
  const end = unixMs(e.PlannedEndDate);
  const updated = unixMs(e.LastUpdated);
  return {
    kind: 'closure',
    closure: {
      jurisdiction: info.code,
      sourceId,
      road: text(e.RoadwayName),
      direction: text(e.DirectionOfTravel),
      description: typeof e.Description === 'string' ? e.Description : '',
      windows: [[start, end !== null && start !== null && end <= start ? null : end]],
      geometry,
      bbox: pointsBBox(geometry.type === 'Point' ? [geometry.coordinates] : geometry.coordinates as LngLatPosition[]),
      sourceUpdatedAt: updated === null ? null : isoUtc(updated),
    },
  };
}
