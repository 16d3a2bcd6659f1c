/**
 * Step 1 of the geocoding benchmark: `canmap ingest geocoding … --enable --wait` against a real
 * `canmap worker`, timing the job and sampling the worker's RSS every 200 ms (peak = VmHWM) per
 * build phase, with the worker's longest event-loop blocks (loop-probe.ts).
 */
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GB, RssSampler, startCanmap, treeMemoryOf } from '../support/processes.ts';
import type { LoopBlock } from './loop-probe.ts';
import type { CorpusSamples } from '../../test/support/geocoding/samples.ts';
import { sharedData } from '../../test/support/paths.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REGIONS = sharedData('geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson');

export interface BuildOptions {
  env: Record<string, string>;
  releasesDir: string;
  corpus: CorpusSamples['summary'];
  regions: boolean;
  buildHeapMb: number;
  timeoutMin: number;
  log: (line: string) => void;
}

export interface BuildOutcome {
  release: string;
  seconds: number;
  peakRss: number;
  releaseLine: string;
  /** Report lines: event-loop blocks and phases. */
  lines: string[];
}

const gb = (bytes: number) => `${(bytes / GB).toFixed(2)} GB`;

export async function buildRelease(o: BuildOptions): Promise<BuildOutcome> {
  const probeFile = path.join(os.tmpdir(), `canmap-bench-geocoding-loop-${process.pid}.json`);
  const worker = startCanmap(['worker'], { ...o.env, LOG_LEVEL: 'info', BENCH_LOOP_PROBE_FILE: probeFile }, [
    '--import', 'tsx', '--import', path.join(HERE, 'loop-probe.ts'),
  ]);
  const ingestRef: { stop?: () => Promise<void> } = {};
  try {
    const sampler = new RssSampler(worker.child.pid!);
    const phases: { at: number; wall: number; message: string }[] = [];
    let buildStarted = 0;
    await new Promise<void>((resolve, reject) => {
      worker.onLine((line) => {
        if (/ready: /.test(line)) resolve();
        if (/stalled|error|warn/i.test(line)) o.log(`  worker: ${line}`);
        const progress = /job \S+: (\d+%) (.*)$/.exec(line);
        if (progress && buildStarted) {
          const at = (performance.now() - buildStarted) / 1000;
          phases.push({ at, wall: Date.now(), message: progress[2]! });
          sampler.setPhase(progress[2]!);
          const m = treeMemoryOf(worker.child.pid!);
          o.log(`  ${at.toFixed(1).padStart(7)} s  ${progress[1]!.padStart(4)} ${progress[2]}  (RSS ${gb(m.rss)})`);
        }
      });
      worker.child.once('exit', (code) => reject(new Error(`canmap worker exited (${code}) before it was ready:\n${worker.output()}`)));
    });
    const inputs = [
      ...(o.regions ? [`regions:${REGIONS}`] : []),
      `localities:${o.corpus.files.localities}`,
      `addresses-oa:${o.corpus.files.addresses}`,
      `osm:${o.corpus.files.osm}`,
    ];
    o.log(`building: canmap ingest geocoding ${inputs.map((i) => `--input ${i}`).join(' ')} --enable --wait (build process heap ${o.buildHeapMb} MB)`);
    buildStarted = performance.now();
    const ingest = startCanmap(['ingest', 'geocoding', ...inputs.flatMap((i) => ['--input', i]), '--enable', '--wait', '--json'], o.env);
    ingestRef.stop = () => ingest.stop();
    const timeout = setTimeout(() => void ingest.stop(), o.timeoutMin * 60_000);
    const code = await new Promise<number | null>((resolve) => ingest.child.once('close', (c) => resolve(c)));
    clearTimeout(timeout);
    const seconds = (performance.now() - buildStarted) / 1000;
    sampler.stop();
    const loopBlocks = await readFile(probeFile, 'utf8').then((t) => JSON.parse(t) as LoopBlock[], () => [] as LoopBlock[]);
    const loopMaxBlockMs = loopBlocks[0]?.ms ?? 0;
    /** The build phase the worker was in when a block began. */
    const phaseAt = (wall: number) => phases.filter((p) => p.wall <= wall).at(-1)?.message ?? 'before the first progress message';
    const outcome = ((): Record<string, unknown> | null => {
      try {
        return JSON.parse(ingest.stdout()) as Record<string, unknown>;
      } catch {
        return null;
      }
    })();
    if (code !== 0 || !outcome?.release) {
      throw new Error(`the build failed after ${seconds.toFixed(0)} s (exit ${code}): ${outcome ? JSON.stringify(outcome) : ingest.output()}\n--- worker (last lines) ---\n${worker.output().split('\n').slice(-30).join('\n')}`);
    }
    o.log(`built release ${outcome.release} in ${seconds.toFixed(1)} s; worker + build process peak RSS ${gb(sampler.peak)}; longest event-loop block ${(loopMaxBlockMs / 1000).toFixed(1)} s`);
    const release = String(outcome.release);
    const lines = [
      `build: in the worker's child process with GEOCODING_BUILD_HEAP_MB=${o.buildHeapMb}; JOB_LOCK_SECONDS at its default (30)`,
      `event-loop blocks in the worker, the longest and any over 5 s (one longer than JOB_LOCK_SECONDS lets BullMQ take the job for stalled): ${
        loopBlocks.filter((b, i) => i === 0 || b.ms > 5000).map((b) => `${(b.ms / 1000).toFixed(1)} s in "${phaseAt(b.endedAt - b.ms)}"`).join('; ') || 'none over 1 s'}`,
      '',
      'build phases (worker progress messages; seconds from enqueue; highest RSS sampled in the phase):',
      ...phases.map((p, i) => {
        const end = phases[i + 1]?.at ?? seconds;
        return `  ${p.at.toFixed(1).padStart(8)} s  +${(end - p.at).toFixed(1).padStart(7)} s  ${gb(sampler.byPhase.get(p.message) ?? 0).padStart(8)}  ${p.message}`;
      }),
    ];
    return { release, seconds, peakRss: sampler.peak, releaseLine: await describeRelease(o.releasesDir, release), lines };
  } finally {
    await ingestRef.stop?.();
    await worker.stop();
    await rm(probeFile, { force: true });
  }
}

/** "release N: files and sizes; rows per layer", from the release's manifest. */
export async function describeRelease(releasesDir: string, release: string): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(releasesDir, 'geocoding', release, 'manifest.json'), 'utf8')) as {
    artifacts: { path: string; bytes: number }[];
    stats: { rows?: Record<string, number> };
  };
  return `release ${release}: ${manifest.artifacts.map((a) => `${a.path} ${gb(a.bytes)}`).join(', ')}; rows ${
    Object.entries(manifest.stats.rows ?? {}).map(([layer, n]) => `${layer} ${n.toLocaleString('en-CA')}`).join(', ')}`;
}
