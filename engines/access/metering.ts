/**
 * What counts as a call (volume 1, "Limits"): the pure rules. The API's hook (api/access/meter-hook.ts)
 * asks `callsOf` about every answer and appends the events to io/access/meter-journal.ts.
 */

/** Set by a route whose answer is several calls (POST /geocode/batch: its non-blank queries); the meter reads it. */
export const BILLABLE_QUERIES_HEADER = 'x-billable-queries';

/**
 * Set by the Optimization route on its answers (volume 3 "Optimization response"): the performed
 * shipments it bills (engines/access/optimization-billing-rules.ts). The meter counts it on a 200 only.
 */
export const BILLABLE_SHIPMENTS_HEADER = 'x-svc-billable-shipments';

export const OPTIMIZATION_FAMILY = 'optimization';

/**
 * POST /optimize and its aliases /v1/projects/{p}:optimizeTours, /projects/{p}:optimizeTours and
 * their /locations/{l} forms. Any `:method` suffix is matched: the route answers the others 404
 * NOT_FOUND, and every non-200 answer of this endpoint is free (Billing 2).
 */
const OPTIMIZATION_PATH = /^\/(?:optimize|(?:v1\/)?projects\/[^/]+?(?:\/locations\/[^/]+?)?(?::|%3[aA])[A-Za-z]+)$/;

export function isOptimizationPath(path: string): boolean {
  return OPTIMIZATION_PATH.test(path);
}

/** Families whose calls are billed from dev origins too (volume 3, Optimization Billing 4). */
export const BILLED_FROM_DEV_ORIGINS: ReadonlySet<string> = new Set([OPTIMIZATION_FAMILY]);

/** Endpoint family of each first path segment (optimization's paths aside); any other path (an unserved one) is `other`. */
export const FAMILIES: Readonly<Record<string, string>> = {
  geocode: 'geocode',
  places: 'places',
  transit: 'transit',
  'coverage.json': 'transit',
  incidents: 'road-events',
  closures: 'road-events',
  'road-conditions': 'road-events',
  'openapi.json': 'discovery',
  '.well-known': 'discovery',
  feedback: 'feedback',
  layers: 'catalog',
  identify: 'catalog',
  data: 'catalog',
  byod: 'byod',
  styles: 'maps',
  tiles: 'maps',
  'tiles.json': 'maps',
  terrain: 'maps',
  contours: 'maps',
  elevation: 'maps',
  glyphs: 'glyphs',
  sprite: 'sprites',
  route: 'routing',
  isochrone: 'routing',
  matrix: 'routing',
  match: 'routing',
  'optimized-route': 'routing',
};
export const OTHER_FAMILY = 'other';

/**
 * Never metered, still authenticated and rate-limited: glyphs, sprites, feedback reports and MCP's
 * own messages.
 * `[METHOD ]/path`, where `:name` is one segment and a trailing `*` any rest.
 */
export const UNMETERED_ROUTES: readonly string[] = [
  '/glyphs/*',
  '/sprite/*',
  'POST /feedback',
  'POST /places/:id/feedback',
  // The agent interface's protocol messages; each tool call is counted as the endpoint it stands for.
  '/mcp',
];

/** The status codes of door rejections (401 key, 403 origin/add-on/dev_only, 429 limit or block): not calls. */
const DOOR_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

interface RoutePattern {
  method: string | null;
  segments: string[];
  rest: boolean;
}

function compile(pattern: string): RoutePattern {
  const [method, path] = pattern.includes(' ') ? pattern.split(' ', 2) as [string, string] : [null, pattern];
  const segments = path.split('/').slice(1);
  const rest = segments.at(-1) === '*';
  return { method, segments: rest ? segments.slice(0, -1) : segments, rest };
}

function matches(route: RoutePattern, method: string, segments: string[]): boolean {
  if (route.method !== null && route.method !== method) return false;
  if (route.rest ? segments.length <= route.segments.length : segments.length !== route.segments.length) return false;
  return route.segments.every((s, i) => (s.startsWith(':') ? segments[i] !== '' : s === segments[i]));
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  const raw = q === -1 ? url : url.slice(0, q);
  // Percent-decoded as the router decodes it before matching (an encoded slash stays encoded), so
  // `/%6Fptimize`, which the router serves as /optimize, is counted and billed as optimization.
  try {
    return raw.split(/%2F/i).map(decodeURIComponent).join('%2F');
  } catch {
    return raw;
  }
}

type HeaderValue = string | number | string[];

function headerCount(value: HeaderValue | undefined): number | null {
  if (value === undefined || Array.isArray(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** The family a request path (no query) is counted under. */
export function familyOf(path: string): string {
  if (isOptimizationPath(path)) return OPTIMIZATION_FAMILY;
  const end = path.indexOf('/', 1);
  return FAMILIES[end === -1 ? path.slice(1) : path.slice(1, end)] ?? OTHER_FAMILY;
}

export interface Metering {
  /** The family a request path is counted under. */
  familyOf(path: string): string;
  /** Whether a request to this path is exempt from metering whatever its answer. */
  unmetered(method: string, path: string): boolean;
  /**
   * The calls an authenticated request's answer counts as: 0 for door rejections and exempt
   * routes; the `x-billable-queries` value when the route set one (POST /geocode/batch); else 1.
   * Optimization paths: the `x-svc-billable-shipments` value on a 200 (0 when absent or
   * malformed), 0 on any other status.
   */
  callsOf(answer: { method: string; path: string; statusCode: number; billableQueries?: HeaderValue; billableShipments?: HeaderValue }): number;
}

export function createMetering(unmeteredRoutes: readonly string[] = UNMETERED_ROUTES): Metering {
  const exempt = unmeteredRoutes.map(compile);
  const unmetered = (method: string, path: string) => {
    const segments = path.split('/').slice(1);
    return exempt.some((route) => matches(route, method, segments));
  };
  return {
    familyOf,
    unmetered,
    callsOf({ method, path, statusCode, billableQueries, billableShipments }) {
      if (DOOR_STATUSES.has(statusCode) || unmetered(method, path)) return 0;
      if (isOptimizationPath(path)) return statusCode === 200 ? headerCount(billableShipments) ?? 0 : 0;
      return headerCount(billableQueries) ?? 1;
    },
  };
}

/** One answered request's calls, as the writer stores them. */
export interface MeterEvent {
  day: string;
  keyId: string;
  accountId: string | null;
  family: string;
  dev: boolean;
  calls: number;
  /** Of `calls`, those that used a premium capability (the dev plan's monthly ceiling counts them). */
  premium: number;
}

/** A batch summed per (day, key, family, dev), as the column arrays of one `unnest` insert. */
export interface AggregatedBatch {
  days: string[];
  keyIds: string[];
  accountIds: (string | null)[];
  families: string[];
  devs: boolean[];
  calls: number[];
  premium: number[];
  /** Calls in the batch (the sum of `calls`). */
  total: number;
}

/**
 * Sums events per row of usage_daily, sorted by the primary key so concurrent batches lock
 * rows in the same order (no deadlocks between API processes).
 */
export function aggregate(events: readonly MeterEvent[]): AggregatedBatch {
  const sums = new Map<string, MeterEvent>();
  for (const e of events) {
    if (e.calls === 0) continue;
    const id = `${e.day}\u0000${e.keyId}\u0000${e.family}\u0000${e.dev ? 1 : 0}`;
    const row = sums.get(id);
    if (row) {
      row.calls += e.calls;
      row.premium += e.premium;
    } else sums.set(id, { ...e });
  }
  const ids = [...sums.keys()].sort();
  const out: AggregatedBatch = { days: [], keyIds: [], accountIds: [], families: [], devs: [], calls: [], premium: [], total: 0 };
  for (const id of ids) {
    const r = sums.get(id)!;
    out.days.push(r.day);
    out.keyIds.push(r.keyId);
    out.accountIds.push(r.accountId);
    out.families.push(r.family);
    out.devs.push(r.dev);
    out.calls.push(r.calls);
    out.premium.push(r.premium);
    out.total += r.calls;
  }
  return out;
}
