/**
 * The requests of the serving-cost benchmark: one run per endpoint family on the demo's releases
 * (downtown Vancouver, the N48W125 DEM, the demo catalog), beside the authenticated no-op (an
 * unserved path: auth, rate limit, metering and the plain 404, no handler). The tiles are those
 * the issue measured: a 5 kB z10 tile and a 32 kB z14 tile of the basemap, also uploaded as an
 * overlay (the demo's basemap archive posted to /byod).
 */
import type { BenchRequest } from '../routing/serve-requests.ts';

/** The families answered with stored tile bytes from an archive (the tile cache's part). */
export const STORED_TILES: ReadonlySet<string> = new Set(['tile-small', 'tile-large', 'overlay-tile', 'upload-tile', 'terrain', 'contours']);

export interface CostRun {
  name: string;
  label: string;
  requests: BenchRequest[];
}

const get = (path: string): BenchRequest => ({ method: 'GET', path });
const post = (path: string, body: unknown): BenchRequest => ({ method: 'POST', path, body: JSON.stringify(body) });

/** The tile at a point and zoom (XYZ, web mercator). */
export function tileAt(lng: number, lat: number, z: number): string {
  const n = 2 ** z;
  const x = Math.floor(((lng + 180) / 360) * n);
  const rad = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return `${z}/${x}/${y}`;
}

const stop = (id: string) => encodeURIComponent(`svc:transit:stop:${id}`);
const glyph = (stack: string, start: number) => `/glyphs/2/${encodeURIComponent(stack)}/${start}-${start + 255}.pbf`;
// On land inside the demo DEM (48.0–48.5° N, 124–125° W: the Olympic Peninsula's north coast).
const DEM_POINTS: [number, number][] = [[-124.3, 48.08], [-124.55, 48.2], [-124.1, 48.12]];

/** `overlayId`: an uploaded overlay holding the demo basemap's archive. */
export function costRuns(overlayId: string): CostRun[] {
  return [
    { name: 'noop', label: 'authenticated no-op (404)', requests: [get('/no/such/path')] },
    { name: 'tile-small', label: 'GET /tiles/10/161/350 (basemap, 5 kB)', requests: [get('/tiles/10/161/350')] },
    { name: 'tile-large', label: 'GET /tiles/14/2588/5606 (basemap, 32 kB)', requests: [get('/tiles/14/2588/5606')] },
    { name: 'overlay-tile', label: 'GET /layers/municipalities/10/187/342', requests: [get('/layers/municipalities/10/187/342')] },
    { name: 'upload-tile', label: 'GET /byod/{id}/14/2588/5606 (an uploaded PMTiles, 32 kB)', requests: [get(`/byod/${overlayId}/14/2588/5606`)] },
    { name: 'glyphs', label: 'GET /glyphs/2/Noto Sans Regular/0-255.pbf (47 kB)', requests: [get(glyph('Noto Sans Regular', 0))] },
    { name: 'glyph-mix', label: 'GET /glyphs/2/… three stacks, four ranges', requests: ['Noto Sans Regular', 'Noto Sans Medium', 'Noto Sans Medium,Noto Sans Regular'].flatMap((s) => [0, 256, 5120, 8192].map((r) => get(glyph(s, r)))) },
    { name: 'sprite', label: 'GET /sprite/2/light{,@2x}.{json,png}', requests: ['light.json', 'light.png', 'light@2x.json', 'light@2x.png'].map((f) => get(`/sprite/2/${f}`)) },
    { name: 'terrain', label: 'GET /terrain/4/{z}/{x}/{y} (terrarium PNG)', requests: DEM_POINTS.flatMap(([lng, lat]) => [10, 11, 12].map((z) => get(`/terrain/4/${tileAt(lng, lat, z)}`))) },
    { name: 'contours', label: 'GET /contours/4/{z}/{x}/{y}', requests: DEM_POINTS.flatMap(([lng, lat]) => [11, 12, 13].map((z) => get(`/contours/4/${tileAt(lng, lat, z)}`))) },
    { name: 'style', label: 'GET /styles/base-light.json', requests: [get('/styles/base-light.json'), get('/styles/base-light.json?lang=fr')] },
    { name: 'tilejson', label: 'GET /tiles.json', requests: [get('/tiles.json')] },
    { name: 'geocode-search', label: 'GET /geocode/search', requests: ['111 Wellington St Ottawa', '1200 boul Rene-Levesque O Montreal', 'Gare Centrale', 'k1a 0a9'].map((q) => get(`/geocode/search?q=${encodeURIComponent(q)}`)) },
    { name: 'geocode-autocomplete', label: 'GET /geocode/autocomplete', requests: ['queb', 'wellin', 'gare c', 'ott'].map((q) => get(`/geocode/autocomplete?q=${encodeURIComponent(q)}`)) },
    { name: 'geocode-reverse', label: 'GET /geocode/reverse', requests: [get('/geocode/reverse?lon=-123.1209&lat=49.2828'), get('/geocode/reverse?lon=-75.6953&lat=45.4206')] },
    { name: 'transit-departures', label: 'GET /transit/stops/{id}/departures', requests: [get(`/transit/stops/${stop('vancouver-bus:GRAN_GEORGIA')}/departures?window=120`)] },
    { name: 'transit-stops', label: 'GET /transit/stops?near=', requests: [get('/transit/stops?near=-123.1175,49.2820&radius=500')] },
    { name: 'incidents', label: 'GET /incidents?near=', requests: [get('/incidents?near=-117.52,51.30&radius=100000')] },
    { name: 'identify', label: 'GET /identify', requests: [get('/identify?at=-73.60,45.485')] },
    { name: 'route', label: 'GET /route short, Vancouver', requests: [get('/route?from=-123.1115,49.2856&to=-123.1390,49.2750'), get('/route?from=-123.1207,49.2827&to=-123.1100,49.2700')] },
    { name: 'isochrone', label: 'GET /isochrone 5 min pedestrian', requests: [get('/isochrone?lon=-123.1207&lat=49.2827&minutes=5&mode=pedestrian')] },
    { name: 'matrix', label: 'POST /matrix 2×2', requests: [post('/matrix', { origins: [[-123.1115, 49.2856], [-123.139, 49.275]], destinations: [[-123.1207, 49.2827], [-123.11, 49.27]] })] },
  ];
}
