/**
 * The synthetic graph's settlements: Zipf-sized cities laid over a Canada-like box (denser to the
 * south, many towns clustered around bigger cities), and the plan of each one's street grid
 * (spacing, rotation, width and height). The grids themselves are built by city-grid.ts.
 */
import { METRES_PER_DEGREE, haversineMetres } from '../../../lib/geo/haversine.ts';
import type { Random } from '../../../lib/seeded-random.ts';

export const BOX = { west: -130, east: -55, south: 42, north: 60 } as const;

/** Graph nodes per grid intersection, counting mid-block nodes and driveway spurs (measured). */
export const NODES_PER_GRID_NODE = 1.6;
const ZIPF_EXPONENT = 1;
const MIN_CITY_NODES = 40;

export interface CityPlan {
  /** 0 for the largest. */
  rank: number;
  lng: number;
  lat: number;
  /** Block edge in metres. */
  spacing: number;
  /** Radians, counter-clockwise from east, of the grid's i axis. */
  rotation: number;
  /** Grid intersections across (i) and up (j). */
  w: number;
  h: number;
  /** Centre to corner, metres. */
  radius: number;
}

export const metresPerDegreeLng = (lat: number): number => METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180);

/** The point `east`, `north` metres from lng/lat. */
export function offsetDegrees(lng: number, lat: number, east: number, north: number): [number, number] {
  return [lng + east / metresPerDegreeLng(lat), lat + north / METRES_PER_DEGREE];
}

/** A grid of about `nodes` graph nodes (NODES_PER_GRID_NODE each intersection) at lng/lat. */
export function gridPlan(random: Random, rank: number, nodes: number, lng: number, lat: number, spacing: number): CityPlan {
  const intersections = Math.max(9, nodes / NODES_PER_GRID_NODE);
  const aspect = 0.7 + 0.6 * random();
  const w = Math.max(3, Math.round(Math.sqrt(intersections * aspect)));
  const h = Math.max(3, Math.round(intersections / w));
  const rotation = (random() - 0.5) * 0.7;
  return { rank, lng, lat, spacing, rotation, w, h, radius: 0.5 * spacing * Math.hypot(w, h) };
}

/** City count for a graph of `nodes`: towns of a few hundred nodes at the small end. */
export const cityCount = (nodes: number): number => Math.max(24, Math.min(5000, Math.round(nodes / 2500)));

/** Zipf shares of `budget` nodes among `count` cities, largest first. */
function zipfSizes(budget: number, count: number): number[] {
  let harmonic = 0;
  for (let i = 1; i <= count; i++) harmonic += 1 / i ** ZIPF_EXPONENT;
  return Array.from({ length: count }, (_, i) => Math.max(MIN_CITY_NODES, Math.round(budget / ((i + 1) ** ZIPF_EXPONENT * harmonic))));
}

const overlaps = (placed: readonly CityPlan[], lng: number, lat: number, radius: number): boolean =>
  placed.some((c) => haversineMetres(c.lng, c.lat, lng, lat) < c.radius + radius + 3000);

/**
 * Plans `count` cities sharing `budget` nodes, largest first. Over half of the smaller ones sit
 * 20–250 km from one of the largest (metropolitan regions), the rest anywhere in the box with a
 * southward bias (most of the population lives near the border).
 */
export function planCities(random: Random, budget: number, count: number): CityPlan[] {
  const sizes = zipfSizes(budget, count);
  const cores = Math.max(3, Math.round(count * 0.06));
  const placed: CityPlan[] = [];
  sizes.forEach((nodes, rank) => {
    const spacing = 80 + 70 * random();
    const probe = gridPlan(random, rank, nodes, 0, 0, spacing);
    for (let attempt = 0; ; attempt++) {
      let lng: number;
      let lat: number;
      if (rank > 0 && random() < 0.55) {
        const core = placed[random.int(Math.min(placed.length, cores))]!;
        const distance = core.radius + probe.radius + 20_000 + 230_000 * random() ** 1.5;
        const angle = 2 * Math.PI * random();
        [lng, lat] = offsetDegrees(core.lng, core.lat, distance * Math.cos(angle), distance * Math.sin(angle));
      } else {
        lng = BOX.west + (BOX.east - BOX.west) * random();
        lat = BOX.south + (BOX.north - BOX.south) * random() ** 1.7;
      }
      const margin = probe.radius / METRES_PER_DEGREE;
      const inside = lat - margin > BOX.south && lat + margin < BOX.north
        && lng - margin * 2 > BOX.west && lng + margin * 2 < BOX.east;
      if ((inside && !overlaps(placed, lng, lat, probe.radius)) || attempt >= 200) {
        placed.push({ ...probe, lng, lat });
        return;
      }
    }
  });
  return placed;
}
