/**
 * populatePolylines (volume 3): each used route's line along roads, leg by leg, as an encoded
 * polyline (precision 5). Drawing is optional: a route whose legs cannot all be drawn, or that
 * the deadline cuts off, gets no polyline (the API warns ROUTE_POLYLINE_UNAVAILABLE); the solve
 * never fails for it.
 */
import { encodePolyline } from '../../lib/geo/polyline-encode.ts';
import type { CostModel } from '../routing/cost-model.ts';
import { fromMicroDegrees } from '../routing/graph-format.ts';
import { planRoute } from '../routing/plan-route.ts';
import type { RoadNetwork } from '../routing/release.ts';
import type { PlaceSet } from './places.ts';
import type { RouteSchedule } from './problem.ts';
import type { LatLng } from './request-model.ts';

/** One encoded polyline per route (null: not drawn), given each route's places in visiting order. */
export function drawRoutePolylines(
  network: RoadNetwork, model: CostModel, routes: readonly (readonly LatLng[])[], deadline: number, now: () => number = performance.now.bind(performance),
): (string | null)[] {
  // Shortest routes first: a deadline that cuts the drawing off leaves the most routes drawn.
  const order = routes.map((_, i) => i).sort((a, b) => routes[a]!.length - routes[b]!.length);
  const drawn: (string | null)[] = routes.map(() => null);
  for (const i of order) drawn[i] = drawOne(network, model, routes[i]!, deadline, now);
  return drawn;
}

function drawOne(network: RoadNetwork, model: CostModel, places: readonly LatLng[], deadline: number, now: () => number): string | null {
  if (places.length < 2) return null;
  const line: [number, number][] = [];
  for (let i = 1; i < places.length; i++) {
    if (now() > deadline) return null;
    const from = places[i - 1]!;
    const to = places[i]!;
    if (from.latitude === to.latitude && from.longitude === to.longitude) continue;
    const leg = planRoute(network, model, [from.longitude, from.latitude], [to.longitude, to.latitude]);
    if (!leg) return null;
    for (let k = line.length === 0 ? 0 : 1; k < leg.line.length / 2; k++) {
      line.push([fromMicroDegrees(leg.line[2 * k]!), fromMicroDegrees(leg.line[2 * k + 1]!)]);
    }
  }
  if (line.length === 0) line.push([places[0]!.longitude, places[0]!.latitude]);
  return encodePolyline(line);
}

/** A used route's places in driving order: its start (if any), each visit, its end (if any). */
export function routePlaces(places: PlaceSet, schedule: RouteSchedule, vehicle: number): LatLng[] {
  const latLngs = places.latLngs;
  if (!latLngs) return [];
  const at = (place: number | null) => (place === null ? [] : [latLngs[place]!]);
  const visits = schedule.visits.map((v) => {
    const p = places.shipments[v.shipment]!;
    return latLngs[(v.isPickup ? p.pickup : p.delivery)!]!;
  });
  return [...at(places.vehicleStarts[vehicle]!), ...visits, ...at(places.vehicleEnds[vehicle]!)];
}
