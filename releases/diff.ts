import type { Manifest } from '../schemas/manifest.ts';

export interface Change {
  field: string;
  a: unknown;
  b: unknown;
  delta?: number;
}

function byKey<T>(items: T[], key: (t: T) => string): Map<string, T> {
  return new Map(items.map((item) => [key(item), item]));
}

function compareMaps<T>(prefix: string, a: Map<string, T>, b: Map<string, T>, same: (x: T, y: T) => boolean): Change[] {
  const changes: Change[] = [];
  for (const name of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(name);
    const y = b.get(name);
    if (x === undefined || y === undefined || !same(x, y)) changes.push({ field: `${prefix}.${name}`, a: x ?? null, b: y ?? null });
  }
  return changes;
}

const json = (v: unknown) => JSON.stringify(v);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stats object's leaves by dotted path (`rows.locality`); nested objects are walked, arrays are leaves. */
function statLeaves(stats: Record<string, unknown>, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, value] of Object.entries(stats)) {
    if (isPlainObject(value) && Object.keys(value).length > 0) statLeaves(value, `${prefix}${key}.`, into);
    else into.set(`${prefix}${key}`, value);
  }
  return into;
}

/**
 * The stats that differ, one change per leaf (`stats.rows.locality`), with the delta when both
 * sides are numbers. The shrink guard reads its counts from here too.
 */
export function diffStats(a: Manifest['stats'], b: Manifest['stats']): Change[] {
  const x = statLeaves(a);
  const y = statLeaves(b);
  const changes: Change[] = [];
  for (const key of [...new Set([...x.keys(), ...y.keys()])].sort()) {
    const before = x.get(key);
    const after = y.get(key);
    if (json(before) === json(after)) continue;
    changes.push({ field: `stats.${key}`, a: before ?? null, b: after ?? null, ...(typeof before === 'number' && typeof after === 'number' ? { delta: after - before } : {}) });
  }
  return changes;
}

/** What differs between two manifests: header fields, inputs, artifacts, stats (with numeric deltas) and coverage. */
export function diffManifests(a: Manifest, b: Manifest): Change[] {
  const changes: Change[] = [];
  for (const field of ['kind', 'created_at', 'content_hash', 'builder_version', 'schema_version'] as const) {
    if (a[field] !== b[field]) changes.push({ field, a: a[field], b: b[field] });
  }
  changes.push(...compareMaps('inputs', byKey(a.inputs, (i) => i.name), byKey(b.inputs, (i) => i.name), (x, y) => json(x) === json(y)));
  changes.push(...compareMaps('artifacts', byKey(a.artifacts, (i) => i.path), byKey(b.artifacts, (i) => i.path), (x, y) => x.sha256 === y.sha256));
  changes.push(...diffStats(a.stats, b.stats));
  const coverageKey = (c: Record<string, unknown>) => String(c.feed_id ?? c.name ?? c.id ?? json(c));
  changes.push(...compareMaps('coverage', byKey(a.coverage ?? [], coverageKey), byKey(b.coverage ?? [], coverageKey), (x, y) => json(x) === json(y)));
  return changes;
}
