/**
 * The peer: GDAL's MVT driver writing MBTiles (`ogr2ogr -f MBTILES`), from Debian's gdal-bin,
 * installed with apt-get when ogr2ogr is missing. Tiles are counted with the sqlite3 CLI (also
 * installed if missing), since Node 20 has no SQLite of its own.
 */
import { spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { aptInstall, onPath, sqliteRows, type ToolCheck } from '../support/apt-tools.ts';
import { runMeasured } from '../support/measure.ts';

export function ensureGdal(): ToolCheck {
  const notes: string[] = [];
  if (!onPath('ogr2ogr')) aptInstall(['gdal-bin'], notes);
  if (!onPath('sqlite3')) aptInstall(['sqlite3'], notes);
  if (!onPath('ogr2ogr')) {
    notes.push('GDAL (ogr2ogr) is not available: only our tiler is measured');
    return { available: false, version: null, notes };
  }
  const version = spawnSync('ogr2ogr', ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { available: true, version, notes };
}

export interface GdalRun {
  outcome: 'ok' | 'timeout' | 'failed';
  seconds: number;
  peakRssBytes: number;
  bytes: number | null;
  tiles: number | null;
  error?: string;
}

function countTiles(mbtiles: string): number | null {
  const count = sqliteRows(mbtiles, 'SELECT count(*) FROM tiles')?.[0]?.[0];
  return count === undefined ? null : Number(count);
}

export async function runGdal(input: string, out: string, maxZoom: number, timeoutMs: number): Promise<GdalRun> {
  const run = await runMeasured('ogr2ogr', ['-f', 'MBTILES', out, `GeoJSONSeq:${input}`, '-dsco', 'MINZOOM=0', '-dsco', `MAXZOOM=${maxZoom}`], { timeoutMs });
  const base = { seconds: run.seconds, peakRssBytes: run.peakRssBytes };
  if (run.timedOut) return { ...base, outcome: 'timeout', bytes: null, tiles: null };
  if (run.code !== 0) return { ...base, outcome: 'failed', bytes: null, tiles: null, error: run.stderr.trim().split('\n').slice(-3).join('\n') };
  return { ...base, outcome: 'ok', bytes: (await stat(out)).size, tiles: countTiles(out) };
}
