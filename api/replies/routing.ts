import type { ClosuresNearRoute, RouteClosure } from '../../engines/road-events/closures-near-route.ts';
import type { IsochroneBand } from '../../engines/routing/isochrone.ts';
import type { Relocation } from '../../engines/routing/plan-route.ts';
import type { TruckCompliance } from '../../engines/routing/truck-validation.ts';
import type { IsochroneResponse, RouteGeometryFormat, RouteWarning } from '../../schemas/routing-api.ts';
import type { RouteFindings } from '../../services/routing/index.ts';
import { routeJson } from './route-json.ts';

function relocationWarning({ where, metres }: Relocation): RouteWarning {
  return {
    code: 'ENDPOINT_RELOCATED',
    where,
    message: `the route ${where === 'origin' ? 'starts' : 'ends'} ${Math.round(metres)} m from the requested ${where}, at the nearest usable road; treat the ${where} as unreached`,
  };
}

const closureWhere = (c: RouteClosure) => c.road ?? c.description.slice(0, 80);

/** CLOSURE_IN_FORCE_NEAR_ROUTE and CLOSURE_SCHEDULED_NEAR_ROUTE warnings of the closures near a route. */
export function closureWarnings(closures: ClosuresNearRoute): RouteWarning[] {
  const inForce = closures.inForce.map((c): RouteWarning => ({
    code: 'CLOSURE_IN_FORCE_NEAR_ROUTE',
    where: closureWhere(c),
    message: `${c.jurisdiction}: road closed ${c.distanceMeters} m from the route${c.until ? ` until ${c.until}` : ''}: ${c.description}`,
  }));
  const scheduled = closures.scheduled.map((c): RouteWarning => ({
    code: 'CLOSURE_SCHEDULED_NEAR_ROUTE',
    where: closureWhere(c),
    message: `${c.jurisdiction}: road closure ${c.distanceMeters} m from the route from ${c.effectiveFrom}${c.until ? ` until ${c.until}` : ''}: ${c.description}`,
    effectiveFrom: c.effectiveFrom!,
  }));
  return [...inForce, ...scheduled];
}

/** GET /route's answer (volume 3 "Route response") as JSON bytes: warnings only when there are some. */
export function routeReply(route: RouteFindings, closures: ClosuresNearRoute | null, truck: TruckCompliance | null, format: RouteGeometryFormat = 'geojson'): Buffer {
  const relocations = route.relocations.map(relocationWarning);
  const notChecked: RouteWarning[] = route.relocationChecked ? [] : [{
    code: 'ENDPOINT_RELOCATION_NOT_CHECKED',
    where: 'route',
    message: 'the route has no length, so whether its ends reach the requested points could not be checked',
  }];
  const warnings = [...relocations, ...notChecked, ...(closures ? closureWarnings(closures) : [])];
  return routeJson({
    distanceMeters: Math.round(route.metres),
    durationSeconds: Math.round(route.seconds),
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(truck ? { truck: { validation: { compliant: truck.compliant, endpointsReached: relocations.length === 0 && route.relocationChecked, findings: [...relocations, ...notChecked] } } } : {}),
  }, route.line, format);
}

/** Suggested band colours, smallest band first (styling only). */
const BAND_COLOURS = ['#2a9d8f', '#8ab17d', '#e9c46a', '#e76f51'];

/** GET /isochrone's FeatureCollection: one feature per band, largest first (bands come sorted so). */
export function isochroneReply(bandsMinutes: number[], polygons: IsochroneBand[]): IsochroneResponse {
  const ascending = [...bandsMinutes].sort((a, b) => a - b);
  return {
    type: 'FeatureCollection',
    features: polygons.map((band, i) => {
      const colour = BAND_COLOURS[ascending.indexOf(bandsMinutes[i]!)]!;
      return {
        type: 'Feature',
        geometry: band.geometry,
        properties: { contour: bandsMinutes[i]!, metric: 'time', color: colour, opacity: 0.33, fill: colour, fillColor: colour, fillOpacity: 0.33, 'fill-opacity': 0.33 },
      };
    }),
  };
}
