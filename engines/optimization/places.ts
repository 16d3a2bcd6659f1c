/**
 * The distinct places of a request in a canonical order (coordinates by latitude then longitude;
 * own-matrix places by source row then destination column), so the problem the solver sees, and
 * therefore its answer, does not depend on the order shipments and vehicles were written in.
 * Ignored shipments have no places: nothing travels to them.
 */
import type { LatLng, OptimizationRequest, Place } from './request-model.ts';

export interface PlaceSet {
  /** Coordinates of each place (travel by road or straight line); null with own matrices. */
  latLngs: LatLng[] | null;
  /** Own matrices: each place's source row and destination column (null where it has none). */
  cells: { src: number | null; dst: number | null }[] | null;
  size: number;
  /** By request shipment index: its pickup's and delivery's place (null when absent or ignored). */
  shipments: { pickup: number | null; delivery: number | null }[];
  vehicleStarts: (number | null)[];
  vehicleEnds: (number | null)[];
}

const keyOf = (place: Place): string =>
  place.kind === 'coordinates' ? `${place.latLng.latitude},${place.latLng.longitude}` : `${place.src ?? ''}/${place.dst ?? ''}`;

function compare(a: Place, b: Place): number {
  if (a.kind === 'coordinates' && b.kind === 'coordinates') {
    return a.latLng.latitude - b.latLng.latitude || a.latLng.longitude - b.latLng.longitude;
  }
  if (a.kind === 'tags' && b.kind === 'tags') return (a.src ?? -1) - (b.src ?? -1) || (a.dst ?? -1) - (b.dst ?? -1);
  return a.kind === 'coordinates' ? -1 : 1;
}

export function collectPlaces(request: OptimizationRequest): PlaceSet {
  const distinct = new Map<string, Place>();
  const add = (place: Place | null | undefined) => {
    if (place) distinct.set(keyOf(place), place);
  };
  for (const s of request.shipments) {
    if (s.ignore) continue;
    add(s.pickup?.place);
    add(s.delivery?.place);
  }
  for (const v of request.vehicles) {
    add(v.start);
    add(v.end);
  }
  const ordered = [...distinct.values()].sort(compare);
  const indexOf = new Map(ordered.map((p, i) => [keyOf(p), i]));
  const at = (place: Place | null | undefined) => (place ? indexOf.get(keyOf(place))! : null);
  const coordinates = ordered.every((p) => p.kind === 'coordinates');
  return {
    latLngs: coordinates ? ordered.map((p) => (p as Extract<Place, { kind: 'coordinates' }>).latLng) : null,
    cells: coordinates ? null : ordered.map((p) => (p.kind === 'tags' ? { src: p.src, dst: p.dst } : { src: null, dst: null })),
    size: ordered.length,
    shipments: request.shipments.map((s) => (s.ignore ? { pickup: null, delivery: null } : { pickup: at(s.pickup?.place), delivery: at(s.delivery?.place) })),
    vehicleStarts: request.vehicles.map((v) => at(v.start)),
    vehicleEnds: request.vehicles.map((v) => at(v.end)),
  };
}
