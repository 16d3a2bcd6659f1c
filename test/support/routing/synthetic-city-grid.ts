/**
 * One city's streets: a jittered, rotated grid whose every few lines are arterials (primary in the
 * largest cities, else secondary) with tertiary collectors between, the outer ring and those lines
 * always built; residential blocks in between from a random spanning tree plus a share of the
 * remaining block edges (so every intersection is reachable) — the rest dropped or kept as
 * footway/cycleway/path cut-throughs. Some residential rows are one-way couplets (pedestrians
 * still both ways), some block edges get a mid-block node with a driveway or cul-de-sac spur,
 * a few underpasses carry maxheight (never where trucks would lose the only way in), and some
 * arterial crossings forbid a left turn to motor vehicles.
 */
import { ROAD_CLASSES } from '../../../engines/routing/modes.ts';
import { METRES_PER_DEGREE } from '../../../lib/geo/haversine.ts';
import type { Random } from '../../../lib/seeded-random.ts';
import type { GraphBuilder } from './synthetic-builder.ts';
import { type CityPlan, metresPerDegreeLng, offsetDegrees } from './synthetic-cities.ts';
import { MOTOR } from './synthetic-profiles.ts';

export interface CityGrid extends CityPlan {
  /** Graph node of intersection (i, j) is base + j * w + i. */
  base: number;
}

const ARTERIAL_NAMES = [
  'Main Street', 'King Street', 'Queen Street', 'Portage Avenue', 'Yonge Street', 'Granville Street',
  'Jasper Avenue', 'Sherbrooke Street', 'Dundas Street', 'Victoria Avenue', 'Broadway', 'Albert Street',
  'Princess Street', 'Wellington Street', 'Bloor Street', 'Macleod Trail', 'Kingsway', 'Notre-Dame Street',
];
const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
};

/** Share of block edges with a mid-block node, and of those with a spur. */
const MID_BLOCK = 0.3;
const SPUR = 0.5;
const UNDERPASS = 0.004;
const LEFT_TURN_BAN = 0.12;

interface Lines {
  profile: Uint32Array;
  name: Uint32Array;
  forced: Uint8Array;
  /** +1 one-way toward increasing index, -1 toward decreasing, 0 two-way. */
  oneway: Int8Array;
  arterial: Uint8Array;
}

function planLines(b: GraphBuilder, random: Random, count: number, spacing: number, major: boolean, kind: 'Street' | 'Avenue'): Lines {
  const p = b.profiles;
  const lines: Lines = {
    profile: new Uint32Array(count), name: new Uint32Array(count), forced: new Uint8Array(count),
    oneway: new Int8Array(count), arterial: new Uint8Array(count),
  };
  const k = Math.max(4, Math.min(12, Math.round((600 + 500 * random()) / spacing)));
  const small = count <= 2 * k;
  const nameShift = random.int(ARTERIAL_NAMES.length);
  for (let i = 0; i < count; i++) {
    const arterial = small ? i === count >> 1 : i % k === 0;
    const collector = !small && i % k === k >> 1 && random() < 0.5;
    const roadClass = arterial ? (major && (i / k) % 3 === 0 ? 'primary' : small && count < 8 ? 'tertiary' : 'secondary')
      : collector ? 'tertiary' : 'residential';
    lines.profile[i] = p.road(roadClass);
    lines.arterial[i] = arterial ? 1 : 0;
    lines.forced[i] = arterial || collector || i === 0 || i === count - 1 ? 1 : 0;
    lines.name[i] = b.string(arterial ? ARTERIAL_NAMES[(nameShift + i) % ARTERIAL_NAMES.length]! : `${ordinal(i + 1)} ${kind}`);
  }
  if (major) {
    const oneway = p.road('residential', { oneway: true });
    for (let i = 1; i + 2 < count; i++) {
      if (lines.forced[i] || lines.forced[i + 1] || random() >= 0.06) continue;
      lines.oneway[i] = 1;
      lines.oneway[i + 1] = -1;
      lines.forced[i] = lines.forced[i + 1] = 1;
      lines.profile[i] = lines.profile[i + 1] = oneway;
      i += 2;
    }
  }
  return lines;
}

export function buildCityGrid(b: GraphBuilder, random: Random, plan: CityPlan, major: boolean): CityGrid {
  const { w, h, spacing, rotation } = plan;
  const cos = Math.cos(rotation);
  const sin = Math.sin(rotation);
  const mLng = metresPerDegreeLng(plan.lat);
  const base = b.nodeCount;
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const x = (i - (w - 1) / 2 + (random() - 0.5) * 0.3) * spacing;
      const y = (j - (h - 1) / 2 + (random() - 0.5) * 0.3) * spacing;
      b.addNode(plan.lng + (x * cos - y * sin) / mLng, plan.lat + (x * sin + y * cos) / METRES_PER_DEGREE);
    }
  }
  const rows = planLines(b, random, h, spacing, major, 'Avenue');
  const cols = planLines(b, random, w, spacing, major, 'Street');
  const p = b.profiles;
  // Cut-through kinds in proportion: footway 9, path 6, cycleway 3, pedestrian 1, steps 1.
  const paths = [
    ...Array<number>(9).fill(p.road('footway')), ...Array<number>(6).fill(p.road('path')),
    ...Array<number>(3).fill(p.road('cycleway')), p.road('pedestrian'), p.road('steps'),
  ];
  const service = p.road('service');
  const culDeSac = p.road('residential');
  const livingStreet = p.road('living_street');
  const residential = p.road('residential');
  const classOf = new Map(ROAD_CLASSES.slice(0, 7).map((c) => [p.road(c), c] as const));

  /**
   * A block edge u → v. Only `redundant` edges (closing a cycle of the grid) may get a low
   * underpass, so trucks keep a spanning tree of every grid; a split edge has it on one half.
   */
  const street = (u: number, v: number, profile: number, name: number, oneway: boolean, redundant: boolean): void => {
    let limited = profile;
    if (redundant && !oneway && random() < UNDERPASS) limited = p.road(classOf.get(profile)!, { maxHeight: 3 + Math.floor(random() * 14) / 10 });
    else if (major && profile === residential && random() < 0.01) limited = profile = livingStreet;
    if (random() >= MID_BLOCK) {
      b.addSegment(u, v, limited, name);
      return;
    }
    const t = 0.35 + 0.3 * random();
    const mid = b.addNode(b.lngOf(u) + (b.lngOf(v) - b.lngOf(u)) * t, b.latOf(u) + (b.latOf(v) - b.latOf(u)) * t);
    b.addSegment(u, mid, limited, name);
    b.addSegment(mid, v, profile, name);
    if (random() >= SPUR) return;
    // Perpendicular to the block edge, to either side, 40–120 m.
    const east = (b.lngOf(v) - b.lngOf(u)) * mLng;
    const north = (b.latOf(v) - b.latOf(u)) * METRES_PER_DEGREE;
    const scale = ((40 + 80 * random()) / Math.max(1, Math.hypot(east, north))) * (random() < 0.5 ? 1 : -1);
    const [lng, lat] = offsetDegrees(b.lngOf(mid), b.latOf(mid), -north * scale, east * scale);
    b.addSegment(mid, b.addNode(lng, lat), random() < 0.6 ? service : culDeSac);
  };

  const parent = new Int32Array(w * h);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const horizontal = (w - 1) * h;
  const candidates = horizontal + w * (h - 1);
  // Candidate c: horizontal (i, j)–(i+1, j) below `horizontal`, else vertical (i, j)–(i, j+1).
  const ends = (c: number): [number, number, Lines, number] => {
    if (c < horizontal) {
      const j = Math.floor(c / (w - 1));
      const a = j * w + (c % (w - 1));
      return [a, a + 1, rows, j];
    }
    const a = c - horizontal;
    return [a, a + w, cols, a % w];
  };
  const perm = new Uint32Array(candidates);
  let free = 0;
  for (let c = 0; c < candidates; c++) {
    const [a, z, lines, line] = ends(c);
    if (!lines.forced[line]) {
      perm[free++] = c;
      continue;
    }
    const ra = find(a);
    const rz = find(z);
    parent[ra] = rz;
    const dir = lines.oneway[line]!;
    if (dir < 0) street(base + z, base + a, lines.profile[line]!, lines.name[line]!, true, ra === rz);
    else street(base + a, base + z, lines.profile[line]!, lines.name[line]!, dir > 0, ra === rz);
  }
  for (let k = free - 1; k > 0; k--) {
    const r = random.int(k + 1);
    const tmp = perm[k]!;
    perm[k] = perm[r]!;
    perm[r] = tmp;
  }
  const extra = 0.25 + 0.2 * random();
  const cutThrough = 0.12;
  for (let k = 0; k < free; k++) {
    const [a, z, lines, line] = ends(perm[k]!);
    const ra = find(a);
    const rz = find(z);
    if (ra !== rz) {
      parent[ra] = rz;
      street(base + a, base + z, lines.profile[line]!, lines.name[line]!, false, false);
      continue;
    }
    const r = random();
    if (r < extra) street(base + a, base + z, lines.profile[line]!, lines.name[line]!, false, true);
    else if (r < extra + cutThrough * (1 - extra)) b.addSegment(base + a, base + z, paths[random.int(paths.length)]!);
  }

  for (let j = 1; j < h - 1; j++) {
    if (!rows.arterial[j]) continue;
    for (let i = 1; i < w - 1; i++) {
      if (!cols.arterial[i] || random() >= LEFT_TURN_BAN) continue;
      // Arriving from the neighbour at angle `from` (grid directions), a left turn leaves 270° further on.
      const from = rotation + (random.int(4) * Math.PI) / 2;
      b.addTurnRule(base + j * w + i, from, from + (3 * Math.PI) / 2, MOTOR);
    }
  }
  return { ...plan, base };
}

/** The outer-ring intersection of a city facing lng/lat. */
export function borderNodeToward(city: CityGrid, lng: number, lat: number): number {
  const east = (lng - city.lng) * metresPerDegreeLng(city.lat);
  const north = (lat - city.lat) * METRES_PER_DEGREE;
  const cos = Math.cos(city.rotation);
  const sin = Math.sin(city.rotation);
  const gx = (east * cos + north * sin) / city.spacing;
  const gy = (-east * sin + north * cos) / city.spacing;
  const hx = (city.w - 1) / 2;
  const hy = (city.h - 1) / 2;
  const scale = Math.min(gx === 0 ? Infinity : hx / Math.abs(gx), gy === 0 ? Infinity : hy / Math.abs(gy));
  const clamp = (v: number, max: number) => Math.max(0, Math.min(max, Math.round(v)));
  const i = Number.isFinite(scale) ? clamp(hx + gx * scale, city.w - 1) : 0;
  const j = Number.isFinite(scale) ? clamp(hy + gy * scale, city.h - 1) : 0;
  return city.base + j * city.w + i;
}

/** Every outer-ring intersection of a city. */
export function borderNodes(city: CityGrid): number[] {
  const out: number[] = [];
  for (let i = 0; i < city.w; i++) out.push(city.base + i, city.base + (city.h - 1) * city.w + i);
  for (let j = 1; j < city.h - 1; j++) out.push(city.base + j * city.w, city.base + j * city.w + city.w - 1);
  return out;
}
