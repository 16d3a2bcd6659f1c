/**
 * What tiling one GeoJSON upload costs, the way the worker's job runs it (jobs/byod/tile-process.ts:
 * a child process, killed past the time limit): issue 28's dense line (870,000 points, 5.2 MB),
 * a GPS-like track, scattered points, and a polygon no limit lets through. Per case: the outcome
 * (ready, or failed with its reason), seconds to it, the archive's bytes and their ratio to the
 * upload's, and the peak disk use of the job's files (archive, scratch, spooled tiles) sampled
 * every 100 ms.
 *   node --import tsx bench/byod/tiling.ts [--json] [--timeout-seconds 60] [--cases dense,track,points,heavy]
 */
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tileInChildProcess } from '../../jobs/byod/tile-process.ts';
import { denseLineGeoJson, heavyPolygonGeoJson, scatteredPointsGeoJson, trackGeoJson } from '../../test/support/byod/fixtures.ts';

const CASES: Record<string, () => string> = {
  dense: () => denseLineGeoJson(),
  track: () => trackGeoJson(),
  points: () => scatteredPointsGeoJson(),
  heavy: () => heavyPolygonGeoJson(),
};

const args = process.argv.slice(2);
const json = args.includes('--json');
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const timeoutMs = Number(option('--timeout-seconds') ?? 60) * 1000;
const names = (option('--cases') ?? Object.keys(CASES).join(',')).split(',');

async function diskUse(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await diskUse(file);
    else total += (await stat(file).catch(() => null))?.size ?? 0;
  }
  return total;
}

interface CaseResult {
  name: string;
  uploadBytes: number;
  outcome: 'ready' | 'failed';
  error: string | null;
  seconds: number;
  maxZoom: number | null;
  tiles: number | null;
  archiveBytes: number | null;
  ratio: number | null;
  peakDiskBytes: number;
  leftBytes: number;
}

async function run(name: string, root: string): Promise<CaseResult> {
  const text = CASES[name]!();
  const dir = path.join(root, name);
  const jobDir = path.join(dir, 'job');
  await mkdir(jobDir, { recursive: true });
  const sourcePath = path.join(dir, 'upload.geojson');
  await writeFile(sourcePath, text);
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await diskUse(jobDir));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const started = performance.now();
  const result: CaseResult = {
    name, uploadBytes: text.length, outcome: 'failed', error: null, seconds: 0, maxZoom: null, tiles: null, archiveBytes: null, ratio: null, peakDiskBytes: 0, leftBytes: 0,
  };
  try {
    const tiled = await tileInChildProcess({ sourcePath, archivePath: path.join(jobDir, 'tiles.pmtiles'), workDir: path.join(jobDir, 'work') }, timeoutMs);
    Object.assign(result, { outcome: 'ready', maxZoom: tiled.maxZoom, tiles: tiled.tiles, archiveBytes: tiled.bytes, ratio: +(tiled.bytes / text.length).toFixed(2) });
  } catch (err) {
    result.error = (err as Error).message;
  }
  result.seconds = +((performance.now() - started) / 1000).toFixed(1);
  sampling = false;
  await sampler;
  result.peakDiskBytes = Math.max(peak, await diskUse(jobDir));
  // The job removes its work dir whatever happens (jobs/byod/tiling-worker.ts); anything else left is counted.
  await rm(path.join(jobDir, 'work'), { recursive: true, force: true });
  result.leftBytes = result.outcome === 'failed' ? await diskUse(jobDir) : 0;
  return result;
}

const root = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-byod-'));
const results: CaseResult[] = [];
try {
  for (const name of names) {
    if (!CASES[name]) throw new Error(`unknown case ${name}; cases: ${Object.keys(CASES).join(', ')}`);
    const r = await run(name, root);
    results.push(r);
    const mb = (b: number | null) => (b === null ? '-' : `${(b / 1e6).toFixed(1)} MB`);
    console.error(`${name}: ${r.outcome} in ${r.seconds} s, upload ${mb(r.uploadBytes)}, archive ${mb(r.archiveBytes)} (${r.ratio ?? '-'}×), zoom 0-${r.maxZoom ?? '-'}, peak disk ${mb(r.peakDiskBytes)}${r.error ? `; ${r.error}` : ''}`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
const summary = { timeoutSeconds: timeoutMs / 1000, cpus: os.cpus().length, loadAverage: os.loadavg()[0], cases: results };
if (json) console.log(JSON.stringify(summary));
