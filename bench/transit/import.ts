/**
 * Import half of the transit benchmark: the real feed and the scaled feed (≥ 5 M stop_times,
 * made by generate.ts if missing), each imported by canmap's builder and by the `gtfs`
 * package's importGtfs (SQLite), each in its own child process. Prints wall time and peak RSS
 * side by side with the speed ratio.
 *
 *   node --import tsx bench/transit/import.ts [--feed zip] [--stop-times 5000000] [--gtfs-timeout-min 20] [--json]
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
  /** Seconds from spawn to exit (includes Node and tsx start-up). */
  processSeconds: number;
  /** Seconds of the import itself, as timed inside the child (null if it did not finish). */
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
  canmap: ImportRun;
  gtfs: ImportRun;
  /** gtfs import seconds / canmap import seconds (a lower bound when gtfs timed out). */
  speedRatio: number | null;
}

export async function runImportBenchmark(opts: { feed: string; stopTimes: number; gtfsTimeoutMs: number; log?: (line: string) => void }): Promise<ImportComparison[]> {
  const log = opts.log ?? (() => {});
  const scaledDir = defaultScaledFeedDir(opts.stopTimes);
  const existing = await stat(path.join(scaledDir, 'stop_times.txt')).catch(() => null);
  if (!existing) {
    log(`generating ${scaledDir} ...`);
    const generated = await generateScaledFeed({ feed: opts.feed, stopTimes: opts.stopTimes, out: scaledDir });
    log(`  ${generated.stopTimes} stop_times in ${generated.trips} trips`);
  }
  const comparisons: ImportComparison[] = [];
  for (const feed of [opts.feed, scaledDir]) {
    log(`importing ${feed} with canmap ...`);
    const canmap = await runImport('canmap', feed, opts.gtfsTimeoutMs);
    log(`  ${describe(canmap)}`);
    log(`importing ${feed} with gtfs importGtfs ...`);
    const gtfs = await runImport('gtfs', feed, opts.gtfsTimeoutMs);
    log(`  ${describe(gtfs)}`);
    const gtfsSeconds = gtfs.importSeconds ?? (gtfs.outcome === 'timeout' ? gtfs.processSeconds : null);
    const speedRatio = canmap.importSeconds && gtfsSeconds ? gtfsSeconds / canmap.importSeconds : null;
    comparisons.push({ feed, canmap, gtfs, speedRatio });
  }
  return comparisons;
}

function describe(run: ImportRun): string {
  const time = run.importSeconds !== null ? `${run.importSeconds.toFixed(1)} s` : `${run.outcome} after ${run.processSeconds.toFixed(0)} s`;
  return `${time}, peak RSS ${(run.peakRssBytes / MB).toFixed(0)} MB${run.stopTimes !== null ? `, ${run.stopTimes} stop_times` : ''}${run.error ? `\n${run.error}` : ''}`;
}

export function formatImportTable(rows: ImportComparison[]): string {
  const header = ['feed', 'stop_times', 'canmap s', 'canmap peak MB', 'gtfs s', 'gtfs peak MB', 'canmap speed-up'];
  const lines = rows.map((r) => [
    path.basename(r.feed),
    String(r.canmap.stopTimes ?? r.gtfs.stopTimes ?? '?'),
    r.canmap.importSeconds?.toFixed(1) ?? r.canmap.outcome,
    (r.canmap.peakRssBytes / MB).toFixed(0),
    r.gtfs.importSeconds?.toFixed(1) ?? `${r.gtfs.outcome} (> ${r.gtfs.processSeconds.toFixed(0)})`,
    (r.gtfs.peakRssBytes / MB).toFixed(0),
    r.speedRatio === null ? '?' : `${r.gtfs.outcome === 'timeout' ? '> ' : ''}${r.speedRatio.toFixed(1)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  return [header, ...lines].map((cells) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      feed: { type: 'string', default: DEFAULT_SOURCE_FEED },
      'stop-times': { type: 'string', default: '5000000' },
      'gtfs-timeout-min': { type: 'string', default: '20' },
      json: { type: 'boolean', default: false },
    },
  });
  const rows = await runImportBenchmark({
    feed: values.feed!,
    stopTimes: Number(values['stop-times']),
    gtfsTimeoutMs: Number(values['gtfs-timeout-min']) * 60_000,
    log: values.json ? undefined : (line) => console.error(line),
  });
  if (values.json) console.log(JSON.stringify(rows, null, 2));
  else console.log(formatImportTable(rows));
}
