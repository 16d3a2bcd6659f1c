/**
 * The expensive requests of the event-loop benchmark, one kind each, drawn from positions on the
 * Vancouver roads (the lines of a few untimed /route answers), seeded so every run sends the same.
 */
import { haversineMetres, METRES_PER_DEGREE } from '../../lib/geo/haversine.ts';
import { seededRandom } from '../../lib/seeded-random.ts';
import { growthRequest } from '../../test/support/optimization/growth-request.ts';
import { largeArchive, type ArchiveSize } from './pmtiles-archive.ts';

export type LngLat = [number, number];

export interface ExpensiveRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string | Buffer;
  contentType?: string;
  /** A key of its own account per request (overlay quotas and per-account solve limits would refuse the others). */
  freshKey?: boolean;
}

export interface Kind {
  name: string;
  label: string;
  request: ExpensiveRequest;
  /** The solve budget the request asks for (POST /optimize), ms. */
  requestedTimeoutMs?: number;
}

/** Corners of the Vancouver extract (about 18 × 14 km): the longest routes it holds. */
export const CORNER_PAIRS: [LngLat, LngLat][] = [
  [[-123.2450, 49.2650], [-123.0300, 49.2050]],
  [[-123.2300, 49.2450], [-123.0250, 49.2800]],
  [[-123.2410, 49.2620], [-123.0330, 49.2140]],
  [[-123.2000, 49.2340], [-123.0300, 49.2900]],
];

/** The item-1 repro: 2 walking points at gps_accuracy 100. */
export const MATCH_REPRO = { points: [[-123.1207, 49.2827], [-123.1150, 49.2790]], mode: 'pedestrian', gps_accuracy: 100 };

const pick = <T>(list: readonly T[], n: number, rnd: () => number): T[] => Array.from({ length: n }, () => list[Math.floor(rnd() * list.length)]!);
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** A GPS trace of `count` fixes spread evenly along a line, each moved by up to `noise` metres. */
function traceAlong(line: readonly LngLat[], count: number, noise: number, rnd: () => number): LngLat[] {
  const cum = [0];
  for (let i = 1; i < line.length; i++) cum.push(cum[i - 1]! + haversineMetres(line[i - 1]![0], line[i - 1]![1], line[i]![0], line[i]![1]));
  const total = cum[cum.length - 1]!;
  const out: LngLat[] = [];
  let k = 0;
  for (let i = 0; i < count; i++) {
    const at = (total * i) / (count - 1);
    while (k < line.length - 2 && cum[k + 1]! < at) k++;
    const span = cum[k + 1]! - cum[k]!;
    const f = span > 0 ? Math.min(1, (at - cum[k]!) / span) : 0;
    const [x0, y0] = line[k]!;
    const [x1, y1] = line[k + 1]!;
    const lat = y0 + f * (y1 - y0);
    const dx = ((rnd() - 0.5) * 2 * noise) / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
    const dy = ((rnd() - 0.5) * 2 * noise) / METRES_PER_DEGREE;
    out.push([round6(x0 + f * (x1 - x0) + dx), round6(lat + dy)]);
  }
  return out;
}

export interface KindOptions {
  archive: ArchiveSize;
  optimizeTimeout: string;
  isochroneMode: string;
}

/**
 * Every kind (or those named in `only`), given road lines (the first is the longest route, used
 * for /route and the long trace).
 */
export function expensiveKinds(lines: readonly LngLat[][], options: KindOptions, only: ReadonlySet<string> | null = null, seed = 28): Kind[] {
  const rnd = seededRandom(seed);
  const points = lines.flat();
  const longest = lines[0]!;
  const [from, to] = [longest[0]!, longest[longest.length - 1]!];
  const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: 'application/json' });
  const stops = pick(points, 39, rnd);
  const matrixPoints = pick(points, 20, rnd);
  const centre = points[Math.floor(points.length / 2)]!;
  const trace = traceAlong(longest, 2000, 8, rnd);
  const timeoutSeconds = Number(options.optimizeTimeout.replace(/s$/, ''));
  // Some seconds to build: only when it is sent.
  const archive = !only || only.has('byod-pmtiles') ? largeArchive(options.archive) : Buffer.alloc(0);
  const kinds: Kind[] = [
    { name: 'optimized-route', label: 'POST /optimized-route, 39 stops, truck', request: { method: 'POST', path: '/optimized-route', ...json({ stops, mode: 'truck' }) } },
    { name: 'matrix', label: 'POST /matrix 10×10 pedestrian', request: { method: 'POST', path: '/matrix', ...json({ origins: matrixPoints.slice(0, 10), destinations: matrixPoints.slice(10), mode: 'pedestrian' }) } },
    { name: 'isochrone', label: `GET /isochrone minutes=120 ${options.isochroneMode}`, request: { method: 'GET', path: `/isochrone?lon=${centre[0]}&lat=${centre[1]}&minutes=120&mode=${options.isochroneMode}` } },
    { name: 'match-long', label: `POST /match, ${trace.length} fixes along ${(lineMetres(longest) / 1000).toFixed(1)} km, gps_accuracy 10`, request: { method: 'POST', path: '/match', ...json({ points: trace, mode: 'auto', gps_accuracy: 10 }) } },
    { name: 'match-repro', label: 'POST /match, issue 28 item 1 repro (2 walking points, gps_accuracy 100)', request: { method: 'POST', path: '/match', ...json(MATCH_REPRO) } },
    { name: 'route-long', label: `GET /route, corner to corner of the extract (${(lineMetres(longest) / 1000).toFixed(1)} km), auto`, request: { method: 'GET', path: `/route?from=${from[0]},${from[1]}&to=${to[0]},${to[1]}` } },
    {
      name: 'optimize', label: `POST /optimize, 2,000 shipments, 100 vehicles, geodesic, timeout ${options.optimizeTimeout}`,
      request: { method: 'POST', path: '/optimize', ...json(growthRequest({ timeout: options.optimizeTimeout })), freshKey: true }, requestedTimeoutMs: timeoutSeconds * 1000,
    },
    {
      name: 'byod-pmtiles', label: `POST /byod, PMTiles of ${options.archive.entries.toLocaleString('en-CA')} entries over ${options.archive.tiles.toLocaleString('en-CA')} tiles (${(archive.length / 2 ** 20).toFixed(2)} MiB)`,
      request: { method: 'POST', path: '/byod?name=bench', body: archive, contentType: 'application/vnd.pmtiles', freshKey: true },
    },
  ];
  return only ? kinds.filter((k) => only.has(k.name)) : kinds;
}

export const KIND_NAMES = ['optimized-route', 'matrix', 'isochrone', 'match-long', 'match-repro', 'route-long', 'optimize', 'byod-pmtiles'] as const;

export function lineMetres(line: readonly LngLat[]): number {
  let sum = 0;
  for (let i = 1; i < line.length; i++) sum += haversineMetres(line[i - 1]![0], line[i - 1]![1], line[i]![0], line[i]![1]);
  return sum;
}
