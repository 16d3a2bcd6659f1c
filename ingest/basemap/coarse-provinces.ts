/**
 * Provinces and territories from a GeoJSON of their outlines (Natural Earth admin-1): the borders
 * between them as `boundaries` (kind region, kind_detail 4) — the segments two outlines share,
 * so coasts draw no border — and a label for each in `places` (kind region).
 */
import { readFile } from 'node:fs/promises';
import { InvalidInputError } from '../errors.ts';
import { feature, type BasemapFeature } from './feature.ts';
import { labelPoint, type AreaGeometry } from './geometry.ts';
import { plainNames } from './names.ts';

type Position = GeoJSON.Position;

const FRENCH_NAMES: Readonly<Record<string, string>> = {
  'British Columbia': 'Colombie-Britannique', Alberta: 'Alberta', Saskatchewan: 'Saskatchewan', Manitoba: 'Manitoba',
  Ontario: 'Ontario', Québec: 'Québec', Quebec: 'Québec', 'New Brunswick': 'Nouveau-Brunswick', 'Nova Scotia': 'Nouvelle-Écosse',
  'Prince Edward Island': 'Île-du-Prince-Édouard', 'Newfoundland and Labrador': 'Terre-Neuve-et-Labrador', Yukon: 'Yukon',
  'Northwest Territories': 'Territoires du Nord-Ouest', Nunavut: 'Nunavut',
};
const SMALL_PROVINCES: ReadonlySet<string> = new Set(['Prince Edward Island', 'New Brunswick', 'Nova Scotia']);

interface Province {
  name: string;
  geometry: AreaGeometry;
}

export async function readProvinces(file: string): Promise<Province[]> {
  let parsed: GeoJSON.FeatureCollection;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as GeoJSON.FeatureCollection;
  } catch (err) {
    throw new InvalidInputError(`provinces ${file}: ${(err as Error).message}`);
  }
  if (parsed?.type !== 'FeatureCollection' || !Array.isArray(parsed.features)) throw new InvalidInputError(`provinces ${file} is not a GeoJSON FeatureCollection`);
  return parsed.features.map((f, i) => {
    const name = f.properties?.name;
    const type = f.geometry?.type;
    if (typeof name !== 'string' || (type !== 'Polygon' && type !== 'MultiPolygon')) {
      throw new InvalidInputError(`provinces ${file}: feature ${i} needs a name property and a Polygon or MultiPolygon`);
    }
    return { name, geometry: f.geometry as AreaGeometry };
  });
}

const key = (p: Position) => `${p[0]},${p[1]}`;

/** Segments found in two provinces' outlines, joined into lines. */
export function sharedBorders(provinces: readonly Province[]): Position[][] {
  const owners = new Map<string, { a: Position; b: Position; provinces: Set<number> }>();
  provinces.forEach((province, i) => {
    const parts = province.geometry.type === 'Polygon' ? [province.geometry.coordinates] : province.geometry.coordinates;
    for (const ring of parts.flat()) {
      for (let j = 1; j < ring.length; j++) {
        const [a, b] = [ring[j - 1]!, ring[j]!];
        const [ka, kb] = [key(a), key(b)];
        if (ka === kb) continue;
        const k = ka < kb ? `${ka}|${kb}` : `${kb}|${ka}`;
        const entry = owners.get(k) ?? { a, b, provinces: new Set<number>() };
        entry.provinces.add(i);
        owners.set(k, entry);
      }
    }
  });
  // Chain shared segments end to end.
  const byEnd = new Map<string, { a: Position; b: Position; used: boolean }[]>();
  const segments = [...owners.values()].filter((s) => s.provinces.size >= 2).map((s) => ({ a: s.a, b: s.b, used: false }));
  for (const s of segments) for (const p of [s.a, s.b]) byEnd.set(key(p), [...(byEnd.get(key(p)) ?? []), s]);
  const next = (p: Position) => byEnd.get(key(p))?.find((s) => !s.used);
  const lines: Position[][] = [];
  for (const start of segments) {
    if (start.used) continue;
    start.used = true;
    const line = [start.a, start.b];
    for (let s = next(line.at(-1)!); s; s = next(line.at(-1)!)) {
      s.used = true;
      line.push(key(s.a) === key(line.at(-1)!) ? s.b : s.a);
    }
    for (let s = next(line[0]!); s; s = next(line[0]!)) {
      s.used = true;
      line.unshift(key(s.a) === key(line[0]!) ? s.b : s.a);
    }
    lines.push(line);
  }
  return lines;
}

export function* provinceFeatures(provinces: readonly Province[]): Generator<BasemapFeature> {
  for (const line of sharedBorders(provinces)) {
    yield feature('boundaries', { kind: 'region', minZoom: 1, extra: { kind_detail: 4 } }, { type: 'LineString', coordinates: line });
  }
  for (const { name, geometry } of provinces) {
    const minZoom = SMALL_PROVINCES.has(name) ? 5 : 3;
    yield feature('places', { kind: 'region', minZoom, extra: { sort_key: minZoom * 100 - 50 } },
      { type: 'Point', coordinates: labelPoint(geometry) }, plainNames(name, { en: name.replace('Québec', 'Quebec'), fr: FRENCH_NAMES[name] }));
  }
}
