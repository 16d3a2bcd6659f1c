/**
 * The peer of the basemap build: Debian's tilemaker 2.2 with its stock OpenMapTiles profile,
 * writing MBTiles, installed with apt-get when missing. It runs in an empty scratch folder, so
 * the shapefiles the stock config names (Natural Earth, coastline) are never found there: it
 * skips them with a warning and builds the OSM layers only. Tiles and bytes per zoom come from
 * the MBTiles with the sqlite3 CLI (Node 20 has no SQLite of its own).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { aptInstall, onPath, sqliteRows, type ToolCheck } from '../support/apt-tools.ts';
import { runMeasured } from '../support/measure.ts';
import type { ZoomCensus } from './tile-census.ts';

const EXAMPLES = '/usr/share/doc/tilemaker/examples';
export const TILEMAKER_CONFIG = `${EXAMPLES}/config-openmaptiles.json`;
export const TILEMAKER_PROCESS = `${EXAMPLES}/process-openmaptiles.lua`;

export function ensureTilemaker(): ToolCheck {
  const notes: string[] = [];
  if (!onPath('tilemaker')) aptInstall(['tilemaker'], notes);
  if (!onPath('sqlite3')) aptInstall(['sqlite3'], notes);
  if (!onPath('tilemaker')) {
    notes.push('tilemaker is not available: only our build is measured');
    return { available: false, version: null, notes };
  }
  for (const file of [TILEMAKER_CONFIG, TILEMAKER_PROCESS]) {
    if (!existsSync(file)) {
      notes.push(`tilemaker's stock profile is missing (${file}): only our build is measured`);
      return { available: false, version: null, notes };
    }
  }
  const help = spawnSync('tilemaker', ['--help'], { encoding: 'utf8' });
  const version = /tilemaker\s+([\d.]+)/.exec(`${help.stdout}${help.stderr}`)?.[1] ?? null;
  return { available: true, version, notes };
}

export interface TilemakerRun {
  outcome: 'ok' | 'timeout' | 'failed';
  seconds: number;
  cpuSeconds: number | null;
  peakRssBytes: number;
  /** The .mbtiles file. */
  fileBytes: number | null;
  /** Rows of `tiles` per zoom, with the summed length of their (gzip) tile_data. */
  zooms: ZoomCensus[];
  /** Shapefile layers tilemaker reported it could not open. */
  missingShapefiles: string[];
  /** Output objects tilemaker reports ("Generated points: …, lines: …, polygons: …"). */
  generated: { points: number; lines: number; polygons: number } | null;
  error?: string;
}

function zoomCensus(mbtiles: string): ZoomCensus[] {
  const rows = sqliteRows(mbtiles, 'SELECT zoom_level, count(*), sum(length(tile_data)) FROM tiles GROUP BY zoom_level ORDER BY zoom_level') ?? [];
  return rows.map(([z, tiles, bytes]) => ({ z: Number(z), tiles: Number(tiles), bytes: Number(bytes) }));
}

/**
 * tilemaker on `input` → `out` (.mbtiles), measured by GNU time, run from `scratchDir`; with
 * `store`, its nodes and ways go to that directory (`--store`, memory-mapped files) instead of memory.
 */
export async function runTilemaker(input: string, out: string, scratchDir: string, timeoutMs: number, store?: string): Promise<TilemakerRun> {
  const args = ['--input', input, '--output', out, '--config', TILEMAKER_CONFIG, '--process', TILEMAKER_PROCESS, ...(store ? ['--store', store] : [])];
  const run = await runMeasured('tilemaker', args, { timeoutMs, cwd: scratchDir });
  const missingShapefiles = [...run.stderr.matchAll(/Unable to open (\S+?\.shp)/g)].map((m) => m[1]!);
  const objects = /Generated points: (\d+), lines: (\d+), polygons: (\d+)/.exec(run.stdout);
  const generated = objects ? { points: Number(objects[1]), lines: Number(objects[2]), polygons: Number(objects[3]) } : null;
  const base = { seconds: run.seconds, cpuSeconds: run.cpuSeconds, peakRssBytes: run.peakRssBytes, missingShapefiles, generated };
  if (run.timedOut) return { ...base, outcome: 'timeout', fileBytes: null, zooms: [] };
  if (run.code !== 0) {
    const error = `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-4).join('\n');
    return { ...base, outcome: 'failed', fileBytes: null, zooms: [], error };
  }
  return { ...base, outcome: 'ok', fileBytes: (await stat(out)).size, zooms: zoomCensus(out) };
}
