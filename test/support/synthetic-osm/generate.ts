/**
 * generateSyntheticOsm: a seeded, province-sized, inland OSM PBF (no coastline) for the basemap
 * benchmarks, streamed through OsmPbfWriter (sorted: nodes, then ways, then relations, each by
 * id). Every part (each town, then the roads, railways and rivers between them) is generated
 * twice from its own sub-seed, once for its nodes and once for its ways (emitter.ts), so memory
 * holds the town plans and one part at a time whatever the size. Same seed and size, same bytes.
 */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { OsmPbfWriter, type OsmWriteSummary } from '../../../samples/geocoding/pbf-writer.ts';
import { Emitter } from './emitter.ts';
import { Names } from './names.ts';
import { layRegional } from './regional.ts';
import { regionBbox, regionFor, SIZES, type SizeName } from './region.ts';
import { layTown } from './town.ts';
import { planTowns } from './towns.ts';

export interface SyntheticOsmOptions {
  /** A preset (small ≈ 1 M nodes, medium ≈ 3.5 M, large ≈ 11 M), or `nodes` for any target. */
  size?: SizeName;
  nodes?: number;
  seed?: number;
  out: string;
  /** Keep an existing `out` when its summary file (`out`.summary.json) says it was made with this seed, target and generator, at its present size. */
  reuse?: boolean;
  log?: (line: string) => void;
}

export interface SyntheticOsmSummary {
  out: string;
  seed: number;
  targetNodes: number;
  towns: number;
  nodes: number;
  ways: number;
  relations: number;
  bytes: number;
  seconds: number;
  /** [west, south, east, north]. */
  bbox: [number, number, number, number];
  /** True when `reuse` kept an existing file (then `seconds` is how long it took to make). */
  reused: boolean;
}

/** Bump when the output of a given seed and target changes, so that `reuse` regenerates. */
export const GENERATOR_VERSION = 1;

const summaryPath = (out: string) => `${out}.summary.json`;

async function reusable(out: string, seed: number, targetNodes: number): Promise<SyntheticOsmSummary | null> {
  try {
    const saved = JSON.parse(await readFile(summaryPath(out), 'utf8')) as SyntheticOsmSummary & { version: number };
    const { size } = await stat(out);
    if (saved.version !== GENERATOR_VERSION || saved.seed !== seed || saved.targetNodes !== targetNodes || saved.bytes !== size) return null;
    const { version: _, ...summary } = saved;
    return { ...summary, out, reused: true };
  } catch {
    return null;
  }
}

export async function generateSyntheticOsm(options: SyntheticOsmOptions): Promise<SyntheticOsmSummary> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const seed = options.seed ?? 1;
  const targetNodes = options.nodes ?? SIZES[options.size ?? 'small'];
  if (!Number.isInteger(targetNodes) || targetNodes < 1000) throw new Error(`synthetic OSM needs a node target of at least 1000, got ${targetNodes}`);
  if (!Number.isInteger(seed)) throw new Error(`synthetic OSM seed must be an integer, got ${seed}`);
  if (options.reuse) {
    const kept = await reusable(options.out, seed, targetNodes);
    if (kept) {
      log(`reusing ${options.out} (seed ${seed}, ${targetNodes} nodes targeted)`);
      return kept;
    }
  }
  await rm(summaryPath(options.out), { force: true });
  const names = await Names.load();
  const region = regionFor(targetNodes);
  const bbox = regionBbox(region);
  const towns = planTowns(targetNodes, seed, region, names);
  log(`${towns.length} towns (largest ${towns[0]!.name}, ${towns[0]!.cols}×${towns[0]!.rows} blocks) in [${bbox.map((x) => x.toFixed(3)).join(', ')}]`);

  const writer = new OsmPbfWriter(options.out, { sorted: true, bbox, writingProgram: 'canmap bench/maps/generate-osm' });
  let written: OsmWriteSummary;
  try {
    const e = new Emitter(writer);
    for (const pass of ['nodes', 'ways'] as const) {
      e.begin(pass);
      towns.forEach((t) => {
        e.startPart(t.index);
        layTown(e, t, names);
      });
      layRegional(e, towns, names, region, seed, towns.length, targetNodes);
      log(`${pass} pass done: ${e.counts.nodes} nodes, ${e.counts.ways} ways (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
    for (const r of e.relations) writer.relation(r);
  } finally {
    written = writer.close();
  }
  const summary: SyntheticOsmSummary = {
    out: options.out, seed, targetNodes, towns: towns.length,
    nodes: written.nodes, ways: written.ways, relations: written.relations,
    bytes: (await stat(options.out)).size, seconds: (performance.now() - started) / 1000, bbox, reused: false,
  };
  await writeFile(summaryPath(options.out), JSON.stringify({ ...summary, version: GENERATOR_VERSION }));
  return summary;
}
