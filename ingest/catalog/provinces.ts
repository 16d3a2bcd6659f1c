import { readFile } from 'node:fs/promises';
import Flatbush from 'flatbush';
import { resolveRegion } from '../../engines/geocoding/text/provinces.ts';
import { polygonContains, type PolygonRings } from '../../lib/geo/planar.ts';
import { InvalidInputError } from '../errors.ts';

/** A coastal feature just outside a generalized province outline still belongs to it (≈ 20 km). */
const COAST_SNAP_DEGREES = 0.2;

interface ProvincePolygon {
  code: string;
  rings: Float64Array[];
}

function segmentDistance(px: number, py: number, ring: Float64Array, scale: number): number {
  let best = Infinity;
  for (let i = 0; i + 3 < ring.length; i += 2) {
    const ax = ring[i]! * scale, ay = ring[i + 1]!, bx = ring[i + 2]! * scale, by = ring[i + 3]!;
    const dx = bx - ax, dy = by - ay;
    const t = dx || dy ? Math.max(0, Math.min(1, ((px * scale - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy))) : 0;
    best = Math.min(best, Math.hypot(px * scale - (ax + t * dx), py - (ay + t * dy)));
  }
  return best;
}

/** Which province or territory a point lies in, from province outlines (GeoJSON with `name`). */
export class ProvinceLocator {
  private constructor(private readonly polygons: ProvincePolygon[], private readonly index: Flatbush) {}

  static async load(file: string): Promise<ProvinceLocator> {
    const collection = JSON.parse(await readFile(file, 'utf8')) as GeoJSON.FeatureCollection;
    const polygons: ProvincePolygon[] = [];
    for (const feature of collection.features ?? []) {
      const name = String(feature.properties?.name ?? '');
      const code = resolveRegion(name);
      if (!code) throw new InvalidInputError(`provinces ${file}: "${name}" is not a province or territory`);
      const g = feature.geometry;
      const parts = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
      for (const rings of parts) polygons.push({ code, rings: rings.map((ring) => Float64Array.from(ring.flatMap((p) => [p[0]!, p[1]!]))) });
    }
    const index = new Flatbush(Math.max(1, polygons.length));
    for (const { rings } of polygons) {
      const outer = rings[0]!;
      let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
      for (let i = 0; i < outer.length; i += 2) {
        w = Math.min(w, outer[i]!); e = Math.max(e, outer[i]!);
        s = Math.min(s, outer[i + 1]!); n = Math.max(n, outer[i + 1]!);
      }
      index.add(w, s, e, n);
    }
    if (polygons.length === 0) index.add(1e9, 1e9, 1e9, 1e9);
    index.finish();
    return new ProvinceLocator(polygons, index);
  }

  /** The two-letter code, or '' when the point is in no province (nor within the coastal snap). */
  codeAt(lng: number, lat: number): string {
    for (const i of this.index.search(lng, lat, lng, lat)) {
      const p = this.polygons[i];
      if (p && polygonContains(p.rings as PolygonRings, lng, lat)) return p.code;
    }
    const scale = Math.cos((lat * Math.PI) / 180);
    let best = { code: '', distance: COAST_SNAP_DEGREES };
    for (const i of this.index.search(lng - COAST_SNAP_DEGREES / scale, lat - COAST_SNAP_DEGREES, lng + COAST_SNAP_DEGREES / scale, lat + COAST_SNAP_DEGREES)) {
      const p = this.polygons[i];
      if (!p) continue;
      const distance = segmentDistance(lng, lat, p.rings[0]!, scale);
      if (distance < best.distance) best = { code: p.code, distance };
    }
    return best.code;
  }
}
