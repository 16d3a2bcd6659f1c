/** Runs basemap-build-worker.ts as a child process, measured by GNU time exactly as tilemaker is. */
import path from 'node:path';
import { runMeasured } from '../support/measure.ts';
import type { BasemapWorkerReport } from './basemap-build-worker.ts';

const WORKER = path.join(import.meta.dirname, 'basemap-build-worker.ts');

export interface OursRun {
  outcome: 'ok' | 'timeout' | 'failed';
  /** Process wall time, spawn to exit (Node start-up included). */
  seconds: number;
  cpuSeconds: number | null;
  peakRssBytes: number;
  report?: BasemapWorkerReport;
  error?: string;
}

export interface OursOptions {
  /** The in-memory build instead of the streamed one. */
  inMemory?: boolean;
  /** The streamed build's BASEMAP_BUILD_MEMORY_MB. */
  memoryMb?: number;
}

export async function runOursBasemap(pbf: string, provinces: string, archivePath: string, workDir: string, timeoutMs: number, options: OursOptions = {}): Promise<OursRun> {
  const args = [
    '--import', 'tsx', WORKER, pbf, provinces, archivePath, workDir, ...(options.inMemory ? ['--in-memory'] : []), ...(options.memoryMb ? ['--memory-mb', String(options.memoryMb)] : []),
  ];
  const run = await runMeasured(process.execPath, args, { timeoutMs, echoStderr: true });
  const base = { seconds: run.seconds, cpuSeconds: run.cpuSeconds, peakRssBytes: run.peakRssBytes };
  if (run.timedOut) return { ...base, outcome: 'timeout' };
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.code !== 0 || !last.startsWith('{')) return { ...base, outcome: 'failed', error: run.stderr.trim().split('\n').slice(-5).join('\n') };
  const report = JSON.parse(last) as BasemapWorkerReport;
  return { ...base, peakRssBytes: Math.max(run.peakRssBytes, report.peakRssBytes), outcome: 'ok', report };
}
