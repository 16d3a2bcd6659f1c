import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GraphArrays } from '../../engines/routing/graph-format.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import type { DemSampler } from '../../ingest/roads/edge-grades.ts';
import { buildRoadGraph } from '../../ingest/roads/graph-build.ts';
import { readRoadWays } from '../../ingest/roads/read-ways.ts';
import { wayProfile } from '../../ingest/roads/way-tags.ts';

/**
 * A hillside for the grade tests, in metres east (x) and north (y) of (10°, 45°): the ground
 * rises 12 % northwards (height 0.12·y), a cliff of 1012 % below y = −50, and no height at all
 * where x < −500 and y < 30 (a void).
 * - A (0, 0) → B (0, 300): the direct street, +12 % northbound.
 * - A → P (450, 150) → B: a switchback, 949 m for the same 36 m (≈ 3.8 %); P is a shape point.
 * - B → S (200, 200): a one-way motorway (no mode goes back), downhill (−12 m over 224 m ≈ −5.4 %).
 * - V1 (−600, 0) → V2 (−600, 300): its first 30 m are void (graded from y = 30 on).
 * - W1 (−800, 0) → W2 (−800, 20): void all along.
 * - C1 (300, −100) → C2 (300, −60): up the cliff (clamped to 50 %).
 * - A → F (−400, 0): a ferry.
 */
export const LNG0 = 10;
export const LAT0 = 45;
const M_PER_DEG_LAT = 111_195;
const M_PER_DEG_LNG = M_PER_DEG_LAT * Math.cos((LAT0 * Math.PI) / 180);

export const lngLatOf = (x: number, y: number): [number, number] => [
  Number((LNG0 + x / M_PER_DEG_LNG).toFixed(6)), Number((LAT0 + y / M_PER_DEG_LAT).toFixed(6)),
];

export const hillDem: DemSampler = (lng, lat) => {
  const x = (lng - LNG0) * M_PER_DEG_LNG;
  const y = (lat - LAT0) * M_PER_DEG_LAT;
  if (x < -500 && y < 30) return null;
  return 0.12 * y + (y < -50 ? 10 * (y + 50) : 0);
};

export const HILL_NODES: Record<string, [number, number]> = {
  A: [0, 0], B: [0, 300], P: [450, 150], S: [200, 200], V1: [-600, 0], V2: [-600, 300],
  W1: [-800, 0], W2: [-800, 20], C1: [300, -100], C2: [300, -60], F: [-400, 0],
};
const ids = Object.fromEntries(Object.keys(HILL_NODES).map((name, i) => [name, i + 1]));

const WAYS: { id: number; nodes: string[]; tags: Record<string, string> }[] = [
  { id: 1, nodes: ['A', 'B'], tags: { highway: 'residential', name: 'Direct' } },
  { id: 2, nodes: ['A', 'P', 'B'], tags: { highway: 'residential', name: 'Switchback' } },
  { id: 3, nodes: ['B', 'S'], tags: { highway: 'motorway', oneway: 'yes' } },
  { id: 4, nodes: ['V1', 'V2'], tags: { highway: 'residential' } },
  { id: 5, nodes: ['W1', 'W2'], tags: { highway: 'residential' } },
  { id: 6, nodes: ['C1', 'C2'], tags: { highway: 'residential' } },
  { id: 7, nodes: ['A', 'F'], tags: { route: 'ferry', duration: '00:10' } },
];

export function hillXml(): string {
  const nodes = Object.entries(HILL_NODES).map(([name, [x, y]]) => {
    const [lng, lat] = lngLatOf(x, y);
    return `<node id="${ids[name]}" lat="${lat}" lon="${lng}"/>`;
  });
  const ways = WAYS.map((w) => `<way id="${w.id}">${w.nodes.map((n) => `<nd ref="${ids[n]}"/>`).join('')}${
    Object.entries(w.tags).map(([k, v]) => `<tag k="${k}" v="${v}"/>`).join('')}</way>`);
  return `<?xml version="1.0"?><osm version="0.6">${nodes.join('')}${ways.join('')}</osm>`;
}

/** The hillside's graph, built from its XML in `dir` (edgeGrade still all 0). */
export async function buildHillArrays(dir: string): Promise<GraphArrays> {
  const file = path.join(dir, 'hill.osm');
  await writeFile(file, hillXml());
  return buildRoadGraph(await readRoadWays(file, wayProfile)).arrays;
}

/** The graph node at a named point. */
export function hillNode(graph: RoadGraph, name: string): number {
  const [lng, lat] = lngLatOf(...HILL_NODES[name]!);
  for (let v = 0; v < graph.nodeCount; v++) {
    const [vl, va] = graph.nodeLngLat(v);
    if (Math.abs(vl - lng) < 1e-9 && Math.abs(va - lat) < 1e-9) return v;
  }
  throw new Error(`no graph node at ${name}`);
}

/** The directed edges from one named node to another. */
export function hillEdges(graph: RoadGraph, from: string, to: string): number[] {
  const u = hillNode(graph, from);
  const v = hillNode(graph, to);
  const { start, end } = graph.edgesOf(u);
  const out: number[] = [];
  for (let e = start; e < end; e++) if (graph.edgeTarget(e) === v) out.push(e);
  return out;
}
