import { DEFAULT_RADIUS_M } from '../../../schemas/geocoding-api.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';
import { sanitizeBbox, sanitizeLngLat } from './coordinates.ts';
import { clampRadius, sanitizeRadius } from './numbers.ts';
import { haversineMetres } from '../../../lib/geo/haversine.ts';

export const ONE_ANCHOR = 'exactly one of near or bbox required';

export interface Anchor {
  lng: number;
  lat: number;
  /** Metres, clamped to 50..50000. */
  radius: number;
}

/**
 * Where a category search looks: exactly one of near=lng,lat or bbox (its centre, with the
 * geodesic distance to its farthest corner as radius). An explicit radius beats the box's.
 */
export function sanitizeAnchor(query: { near?: unknown; bbox?: unknown; radius?: unknown }): Checked<Anchor> {
  if ((query.near === undefined) === (query.bbox === undefined)) return reject(ONE_ANCHOR);
  const radius = sanitizeRadius(query.radius);
  if (!radius.ok) return radius;
  if (query.near !== undefined) {
    const near = sanitizeLngLat('near', query.near);
    if (!near.ok) return near;
    return accept({ ...near.value, radius: radius.value ?? DEFAULT_RADIUS_M });
  }
  const bbox = sanitizeBbox(query.bbox);
  if (!bbox.ok) return bbox;
  const { minLon: minLng, minLat, maxLon: maxLng, maxLat } = bbox.value.box;
  const lng = (minLng + maxLng) / 2;
  const lat = (minLat + maxLat) / 2;
  // The corner farthest from the centre: on the box's equator-side edge.
  const covering = Math.max(...[[minLng, minLat], [minLng, maxLat], [maxLng, minLat], [maxLng, maxLat]]
    .map(([cornerLng, cornerLat]) => haversineMetres(lng, lat, cornerLng!, cornerLat!)));
  return accept({ lng, lat, radius: radius.value ?? clampRadius(Math.ceil(covering)) });
}
