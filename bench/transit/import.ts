/**
 * Import half of the transit benchmark: the real feed and the scaled feed (≥ 5 M stop_times,
 * made by generate.ts if missing), each imported by canmap's builder and by the `gtfs`
 * package's importGtfs (SQLite), each import in its own child process. Both are timed over the
 * same span (see import-worker.ts): feed zip/folder on disk → finished, closed database file,
 * after each tool's modules are loaded. The real feed is imported --runs times per tool
 * (alternating tools, a fresh process and scratch folder each time, nothing kept between runs)
 * and the median time is shown, since one run of a sub-second import is mostly noise on a
 * shared machine; the scaled feed once per tool. Prints wall time and peak RSS side by side
 * with the speed ratio.
 *
 *   node --import tsx bench/transit/import.ts [--feed zip] [--stop-times 5000000] [--runs 5] [--gtfs-timeout-min 20] [--json]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_SOURCE_FEED, defaultScaledFeedDir, generateScaledFeed } from './generate.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'import-worker.ts');
const MB = 1024 * 1024;

export type ImportTool = 'canmap' | 'gtfs';

export interface ImportRun {
  tool: ImportTool;
  feed: string;
  /** Seconds from spawn to exit (includes Node and tsx start-up and module loading). */
  processSeconds: number;
  /** Seconds of the import itself, as timed inside the child: feed on disk → closed database (null if it did not finish). */
  importSeconds: number | null;
  peakRssBytes: number;
  stopTimes: number | null;
  outcome: 'ok' | 'timeout' | 'failed';
  error?: string;
}

/** Peak RSS so far of a running process (VmHWM never decreases), 0 once it is gone. */
async function vmHwm(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

export async function runImport(tool: ImportTool, feed: string, timeoutMs: number): Promise<ImportRun> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), `canmap-bench-${tool}-`));
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, tool, feed, scratch], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let peak = 0;
  let timedOut = false;
  const poll = setInterval(async () => {
    peak = Math.max(peak, await vmHwm(child.pid!));
  }, 250);
  const killer = setTimeout(async () => {
    timedOut = true;
    peak = Math.max(peak, await vmHwm(child.pid!));
    child.kill('SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  clearTimeout(killer);
  const processSeconds = (performance.now() - started) / 1000;
  await rm(scratch, { recursive: true, force: true });

  const report = stdout.trim().split('\n').map((line) => {
    try {
      return JSON.parse(line) as { seconds: number; stopTimes: number; peakRssBytes: number };
    } catch {
      return null;
    }
  }).filter((r) => r !== null).at(-1);
  if (timedOut) return { tool, feed, processSeconds, importSeconds: null, peakRssBytes: peak, stopTimes: null, outcome: 'timeout' };
  if (code !== 0 || !report) {
    return { tool, feed, processSeconds, importSeconds: null, peakRssBytes: peak, stopTimes: null, outcome: 'failed', error: stderr.trim().split('\n').slice(-5).join('\n') };
  }
  return { tool, feed, processSeconds, importSeconds: report.seconds, peakRssBytes: Math.max(peak, report.peakRssBytes), stopTimes: report.stopTimes, outcome: 'ok' };
}

export interface ImportComparison {
  feed: string;
  /** Runs per tool; canmap and gtfs are their median runs. */
  runs: number;
  canmap: ImportRun;
  gtfs: ImportRun;
  /** gtfs import seconds / canmap import seconds (a lower bound when gtfs timed out). */
  speedRatio: number | null;
}

/** The run with the median import time (failed and timed-out runs count as slowest); peak RSS is the largest of all runs. */
function medianRun(runs: ImportRun[]): ImportRun {
  const key = (r: ImportRun) => r.importSeconds ?? Number.POSITIVE_INFINITY;
  const sorted = [...runs].sort((a, b) => key(a) - key(b));
  return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, peakRssBytes: Math.max(...runs.map((r) => r.peakRssBytes)) };
}

export async function runImportBenchmark(opts: { feed: string; stopTimes: number; runs: number; gtfsTimeoutMs: number; log?: (line: string) => void }): Promise<ImportComparison[]> {
  const log = opts.log ?? (() => {});
  const scaledDir = defaultScaledFeedDir(opts.stopTimes);
  const existing = await stat(path.join(scaledDir, 'stop_times.txt')).catch(() => null);
  if (!existing) {
    log(`generating ${scaledDir} ...`);
    const generated = await generateScaledFeed({ feed: opts.feed, stopTimes: opts.stopTimes, out: scaledDir });
    log(`  ${generated.stopTimes} stop_times in ${generated.trips} trips`);
  }
  const comparisons: ImportComparison[] = [];
  for (const [feed, runs] of [[opts.feed, opts.runs], [scaledDir, 1]] as const) {
    const results: Record<ImportTool, ImportRun[]> = { canmap: [], gtfs: [] };
    for (let run = 1; run <= runs; run++) {
      for (const tool of ['canmap', 'gtfs'] as const) {
        log(`importing ${feed} with ${tool === 'canmap' ? 'canmap' : 'gtfs importGtfs'}${runs > 1 ? ` (run ${run}/${runs})` : ''} ...`);
        const result = await runImport(tool, feed, opts.gtfsTimeoutMs);
        log(`  ${describe(result)}`);
        results[tool].push(result);
      }
    }
    const canmap = medianRun(results.canmap);
    const gtfs = medianRun(results.gtfs);
    const gtfsSeconds = gtfs.importSeconds ?? (gtfs.outcome === 'timeout' ? gtfs.processSeconds : null);
    const speedRatio = canmap.importSeconds && gtfsSeconds ? gtfsSeconds / canmap.importSeconds : null;
    comparisons.push({ feed, runs, canmap, gtfs, speedRatio });
  }
  return comparisons;
}

function describe(run: ImportRun): string {
  const time = run.importSeconds !== null ? `${run.importSeconds.toFixed(2)} s` : `${run.outcome} after ${run.processSeconds.toFixed(0)} s`;
  return `${time}, peak RSS ${(run.peakRssBytes / MB).toFixed(0)} MB${run.stopTimes !== null ? `, ${run.stopTimes} stop_times` : ''}${run.error ? `\n${run.error}` : ''}`;
}

export function formatImportTable(rows: ImportComparison[]): string {
  const header = ['feed', 'runs', 'stop_times', 'canmap s', 'canmap peak MB', 'gtfs s', 'gtfs peak MB', 'canmap speed-up'];
  const lines = rows.map((r) => [
    path.basename(r.feed),
    String(r.runs),
    String(r.canmap.stopTimes ?? r.gtfs.stopTimes ?? '?'),
    r.canmap.importSeconds?.toFixed(2) ?? r.canmap.outcome,
    (r.canmap.peakRssBytes / MB).toFixed(0),
    r.gtfs.importSeconds?.toFixed(2) ?? `${r.gtfs.outcome} (> ${r.gtfs.processSeconds.toFixed(0)})`,
    (r.gtfs.peakRssBytes / MB).toFixed(0),
    r.speedRatio === null ? '?' : `${r.gtfs.outcome === 'timeout' ? '> ' : ''}${r.speedRatio.toFixed(1)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const table = [header, ...lines].map((cells) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
  return [
    'canmap s / gtfs s: median wall seconds of `runs` imports per tool (tools alternate), each timed inside a fresh child process',
    'after its modules are loaded, from the feed (zip or folder) on disk to a finished, closed database file:',
    '  canmap = prepareTransitRelease + build (unzip + hash, load, validate, write transit.duckdb); gtfs = importGtfs into SQLite + closeDb.',
    'peak MB: largest peak RSS of any run\'s child process.',
    table,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      feed: { type: 'string', default: DEFAULT_SOURCE_FEED },
      'stop-times': { type: 'string', default: '5000000' },
      runs: { type: 'string', default: '5' },
      'gtfs-timeout-min': { type: 'string', default: '20' },
      json: { type: 'boolean', default: false },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${JSON.stringify(values.runs)}`);
  const rows = await runImportBenchmark({
    feed: values.feed!,
    stopTimes: Number(values['stop-times']),
    runs,
    gtfsTimeoutMs: Number(values['gtfs-timeout-min']) * 60_000,
    log: values.json ? undefined : (line) => console.error(line),
  });
  if (values.json) console.log(JSON.stringify(rows, null, 2));
  else console.log(formatImportTable(rows));
}
