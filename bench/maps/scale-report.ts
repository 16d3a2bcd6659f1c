/** The printed side-by-side of bench/maps/scale.ts, its targets and the Canada estimate drawn from it. */
import { formatTable, mib } from './build-report.ts';
import type { OursRun } from './ours-build.ts';
import { totalBytes, totalTiles, type ZoomCensus } from './tile-census.ts';
import type { TilemakerRun } from './tilemaker.ts';

export interface GeneratedInput {
  nodes: number;
  ways: number;
  relations: number;
  bytes: number;
  bbox: [number, number, number, number];
}

export interface SizeRun {
  size: string;
  input: GeneratedInput;
  ours: OursRun;
  /** Our archive's tiles intersecting the extract's bbox (ours also covers Canada at z0–8). */
  oursInBox: ZoomCensus[];
  inMemory: OursRun | null;
  tilemaker: TilemakerRun | null;
}

/** OSM's Canada extract (Geofabrik, 2026): about 3.5 GB of PBF. */
const CANADA = { nodes: 400e6, ways: 35e6, pbfBytes: 3.5e9 };

const secs = (s: number | null | undefined) => (s == null ? '-' : `${s.toFixed(1)} s`);
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a != null && b ? (a / b).toFixed(2) : '-');
const count = (n: number | null | undefined) => (n == null ? '-' : n.toLocaleString('en-CA'));
const ok = (r: TilemakerRun | null) => (r?.outcome === 'ok' ? r : null);

export function scaleTable(runs: readonly SizeRun[], peerVersion: string | null): string {
  const peer = `tilemaker ${peerVersion ?? ''} --store`.replace('  ', ' ');
  const rows: string[][] = [['', ...runs.map((r) => `${r.size}: ${(r.input.nodes / 1e6).toFixed(1)} M nodes, ${(r.input.ways / 1e6).toFixed(2)} M ways, ${mib(r.input.bytes)}`)]];
  const row = (label: string, cell: (r: SizeRun) => string) => rows.push([label, ...runs.map(cell)]);
  const peerCell = (r: SizeRun, text: (p: TilemakerRun) => string) => (!r.tilemaker ? 'not run' : ok(r.tilemaker) ? text(r.tilemaker) : `${r.tilemaker.outcome} after ${secs(r.tilemaker.seconds)}`);
  row('ours: wall time', (r) => secs(r.ours.seconds));
  row(`${peer}: wall time`, (r) => peerCell(r, (p) => secs(p.seconds)));
  row('wall, ours / tilemaker', (r) => ratio(r.ours.seconds, ok(r.tilemaker)?.seconds));
  row('ours: CPU (user + system)', (r) => secs(r.ours.cpuSeconds));
  row('tilemaker: CPU', (r) => peerCell(r, (p) => secs(p.cpuSeconds)));
  row('ours: peak RSS', (r) => mib(r.ours.peakRssBytes));
  row('tilemaker: peak RSS', (r) => (r.tilemaker ? mib(r.tilemaker.peakRssBytes) : 'not run'));
  if (runs.some((r) => r.inMemory)) row('ours in memory (before): wall / peak RSS', (r) => (r.inMemory ? `${secs(r.inMemory.seconds)} / ${mib(r.inMemory.peakRssBytes)}` : '-'));
  row('ours: features in / OSM objects skipped', (r) => `${count(r.ours.report?.inputFeatures)} / ${count(r.ours.report?.skippedOsm)}`);
  row('tiles in the bbox, ours / tilemaker', (r) => `${count(totalTiles(r.oursInBox))} / ${peerCell(r, (p) => count(totalTiles(p.zooms)))}`);
  row('tile bytes in the bbox (gzip), ours / tilemaker', (r) => `${mib(totalBytes(r.oursInBox))} / ${peerCell(r, (p) => mib(totalBytes(p.zooms)))}`);
  const first = runs[0]!;
  const last = runs.at(-1)!;
  const flat = last.ours.peakRssBytes / first.ours.peakRssBytes;
  const wall = ok(last.tilemaker) ? last.ours.seconds / last.tilemaker!.seconds : null;
  return [
    formatTable(rows),
    '',
    `target, peak RSS flat: ours at ${last.size} / ours at ${first.size} = ${flat.toFixed(2)} (target ≤ 1.5: ${flat <= 1.5 ? 'met' : 'missed'})`,
    `target, wall time: ours / tilemaker at ${last.size} = ${wall === null ? '-' : wall.toFixed(2)} (target ≤ 1: ${wall === null ? 'not measured' : wall <= 1 ? 'met' : 'missed'})`,
  ].join('\n');
}

export interface CanadaEstimate {
  seconds: number;
  peakRssBytes: number;
  scratchBytes: number;
  text: string;
}

/** Linear in nodes from the largest run (the build's passes are each linear); memory as measured (flat). */
export function canadaEstimate(runs: readonly SizeRun[]): CanadaEstimate {
  const last = runs.at(-1)!;
  const factor = CANADA.nodes / last.input.nodes;
  const seconds = last.ours.seconds * factor;
  const scratch = last.ours.report?.scratchBytes ?? { tables: 0, spool: 0 };
  // The node table grows with nodes; the spool (and the tiling partitions, about as large) with the features, i.e. the PBF.
  const scratchBytes = scratch.tables * factor + 2 * scratch.spool * (CANADA.pbfBytes / last.input.bytes);
  const text = [
    `Canada (${CANADA.nodes / 1e6} M nodes, ${CANADA.ways / 1e6} M ways, ${(CANADA.pbfBytes / 1e9).toFixed(1)} GB of PBF), from the ${last.size} run scaled by nodes (×${factor.toFixed(0)}):`,
    `  time ≈ ${(seconds / 3600).toFixed(1)} h on this machine; peak RSS ≈ ${mib(last.ours.peakRssBytes)} (bounded by BASEMAP_BUILD_MEMORY_MB, not by the input);`,
    `  scratch disk ≈ ${(scratchBytes / 1e9).toFixed(0)} GB in BASEMAP_BUILD_TEMP_DIR (node table 24 bytes a node; feature spool and tiling partitions in proportion to the PBF).`,
  ].join('\n');
  return { seconds, peakRssBytes: last.ours.peakRssBytes, scratchBytes, text };
}
