/**
 * `npm run bench:catalog:build`: the catalog's tile build on a national-scale parcel layer, ours
 * against GDAL's MVT driver, on the same NDJSON input (generate.ts, deterministic) to the same
 * zooms. Each tool runs in its own process, one after the other; printed side by side: wall time,
 * peak RSS, archive bytes, tile count, and ours/GDAL ratios, with the targets (≤ 10 min and ≤ 8 GB
 * for ours, faster than GDAL) passed or failed.
 *
 *   node --import tsx bench/catalog/build.ts [--features 1000000] [--max-zoom 14]
 *     [--gdal-timeout-min 120] [--skip-gdal] [--keep] [--json]
 *
 * Scratch files (input, both archives, our work dir) go to a fresh folder of the system temp dir,
 * removed at the end unless --keep.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureGdal, runGdal, type GdalRun } from './gdal.ts';
import { generateParcels } from './generate.ts';
import { runMeasured } from '../support/measure.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build-worker.ts');
const TARGET_SECONDS = 600;
const TARGET_RSS_BYTES = 8e9;

interface OursRun {
  outcome: 'ok' | 'timeout' | 'failed';
  /** Process wall time, spawn to exit (Node start-up included). */
  seconds: number;
  peakRssBytes: number;
  bytes: number | null;
  tiles: number | null;
  report?: { seconds: number; features: number; streamedTiles: number; dropped: unknown[] };
  error?: string;
}

const { values } = parseArgs({
  options: {
    features: { type: 'string', default: '1000000' },
    'max-zoom': { type: 'string', default: '14' },
    'gdal-timeout-min': { type: 'string', default: '120' },
    'skip-gdal': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const count = Number(values.features);
const maxZoom = Number(values['max-zoom']);
if (!Number.isInteger(count) || count < 1) throw new Error(`--features must be a positive integer, got ${values.features}`);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function runOurs(input: string, out: string, work: string): Promise<OursRun> {
  const run = await runMeasured(process.execPath, ['--import', 'tsx', WORKER, input, out, work, String(maxZoom)], { timeoutMs: 3 * 3600_000, echoStderr: true });
  const base = { seconds: run.seconds, peakRssBytes: run.peakRssBytes };
  if (run.timedOut) return { ...base, outcome: 'timeout', bytes: null, tiles: null };
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.code !== 0 || !last.startsWith('{')) return { ...base, outcome: 'failed', bytes: null, tiles: null, error: run.stderr.trim().split('\n').slice(-5).join('\n') };
  const report = JSON.parse(last) as OursRun['report'] & { bytes: number; tiles: number; peakRssBytes: number };
  return { ...base, peakRssBytes: Math.max(run.peakRssBytes, report.peakRssBytes), outcome: 'ok', bytes: report.bytes, tiles: report.tiles, report };
}

const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const secs = (s: number) => (s >= 120 ? `${s.toFixed(0)} s (${(s / 60).toFixed(1)} min)` : `${s.toFixed(1)} s`);

function table(ours: OursRun, gdal: GdalRun | null, gdalName: string): string {
  const ratio = (a: number | null, b: number | null | undefined) => (a !== null && b ? (a / b).toFixed(2) : '-');
  const cell = (run: { outcome: string; seconds: number } | null, text: string) => (!run ? 'not run' : run.outcome === 'ok' ? text : `${run.outcome} after ${secs(run.seconds)}`);
  const rows = [
    ['', 'ours (canmap tiler)', gdalName, 'ours/GDAL'],
    ['wall time', cell(ours, secs(ours.seconds)), cell(gdal, secs(gdal?.seconds ?? 0)), gdal?.outcome === 'ok' && ours.outcome === 'ok' ? ratio(ours.seconds, gdal.seconds) : '-'],
    ['peak RSS', mib(ours.peakRssBytes), gdal ? mib(gdal.peakRssBytes) : 'not run', ratio(ours.peakRssBytes, gdal?.peakRssBytes)],
    ['archive bytes', ours.bytes === null ? '-' : `${ours.bytes} (${mib(ours.bytes)})`, gdal?.bytes ? `${gdal.bytes} (${mib(gdal.bytes)})` : '-', ratio(ours.bytes, gdal?.bytes)],
    ['tiles', String(ours.tiles ?? '-'), String(gdal?.tiles ?? '-'), ratio(ours.tiles, gdal?.tiles)],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('   ').trimEnd()).join('\n');
}

function targets(ours: OursRun, gdal: GdalRun | null): string[] {
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const done = ours.outcome === 'ok';
  const lines = [
    `  wall time ≤ 10 min:  ${verdict(done && ours.seconds <= TARGET_SECONDS)} (${secs(ours.seconds)})`,
    `  peak RSS ≤ 8 GB:     ${verdict(done && ours.peakRssBytes <= TARGET_RSS_BYTES)} (${(ours.peakRssBytes / 1e9).toFixed(2)} GB)`,
  ];
  if (!gdal) lines.push('  faster than GDAL:    not measured (GDAL unavailable or skipped)');
  else if (gdal.outcome === 'ok') lines.push(`  faster than GDAL:    ${verdict(done && ours.seconds < gdal.seconds)} (GDAL/ours = ${(gdal.seconds / ours.seconds).toFixed(1)}x)`);
  else lines.push(`  faster than GDAL:    ${verdict(done && ours.seconds < gdal.seconds)} (GDAL ${gdal.outcome} after ${secs(gdal.seconds)})`);
  return lines;
}

const scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-catalog-'));
try {
  const input = path.join(scratch, `parcels-${count}.geojsonseq`);
  log(`generating ${count} parcels into ${input} ...`);
  const generated = await generateParcels(input, count);
  log(`  ${mib(generated.bytes)} of NDJSON`);

  log(`tiling with ours to z0-${maxZoom} ...`);
  const ours = await runOurs(input, path.join(scratch, 'ours.pmtiles'), path.join(scratch, 'work'));
  if (ours.error) log(ours.error);

  let gdal: GdalRun | null = null;
  let gdalName = 'GDAL';
  if (!values['skip-gdal']) {
    const check = ensureGdal();
    for (const note of check.notes) log(note);
    if (check.available) {
      gdalName = `${check.version?.split(',')[0] ?? 'GDAL'} ogr2ogr -f MBTILES`;
      log(`tiling with ${gdalName} to z0-${maxZoom} ...`);
      gdal = await runGdal(input, path.join(scratch, 'gdal.mbtiles'), maxZoom, Number(values['gdal-timeout-min']) * 60_000);
      if (gdal.error) log(gdal.error);
    }
  }

  if (values.json) {
    console.log(JSON.stringify({ features: count, inputBytes: generated.bytes, maxZoom, ours, gdal }, null, 2));
  } else {
    console.log([
      '',
      `catalog build: ${count.toLocaleString('en-CA')} polygon features (${mib(generated.bytes)} NDJSON, generate.ts) to z0-${maxZoom};`,
      `this machine: ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; each tool in its own process, one after the other.`,
      'wall time: spawn to exit; peak RSS: the process\'s maximum resident set (GNU time); tiles: addressed tiles (ours) / rows of `tiles` (GDAL).',
      '',
      table(ours, gdal, gdalName),
      '',
      'targets (ours):',
      ...targets(ours, gdal),
      ...(ours.report ? [
        '',
        `ours, inside the process: ${ours.report.seconds.toFixed(1)} s; ${ours.report.streamedTiles} low-zoom tiles streamed from partition files;`
          + ` tile budget drops: ${ours.report.dropped.length ? JSON.stringify(ours.report.dropped) : 'none'}`,
      ] : []),
    ].join('\n'));
  }
} finally {
  if (values.keep) log(`kept ${scratch}`);
  else await rm(scratch, { recursive: true, force: true });
}
