/**
 * `canmap serve --processes N`: N API processes sharing the API and admin ports (node:cluster),
 * so the CPU-bound endpoints (routing, isochrones) use every core. Each process is the ordinary
 * single-process server with its own release store and meter journal file (volume 1 metering is
 * per process by design, METER_JOURNAL_DIR). The primary only supervises: it replaces a process
 * that dies, and on SIGTERM/SIGINT asks every process to drain, then exits when they have.
 */
import cluster, { type Worker } from 'node:cluster';
import { answerClusterScrapes } from '../api/metrics/cluster-metrics.ts';
import type { Output } from './output.ts';
import { onStopSignal } from './stop-signal.ts';

/** IPC between the primary and its API processes. */
export const SUPERVISOR_STOP_MESSAGE = 'canmap:stop';
export interface ReadyMessage {
  type: 'canmap:ready';
  url: string;
  adminUrl: string;
}

export const isReadyMessage = (m: unknown): m is ReadyMessage => (m as ReadyMessage | null)?.type === 'canmap:ready';

/** Resolves when the primary asks this API process to stop (never, outside a cluster). */
export function primaryStopRequest(): Promise<'primary'> {
  return new Promise((resolve) => {
    if (!cluster.isWorker) return;
    process.on('message', (m) => m === SUPERVISOR_STOP_MESSAGE && resolve('primary'));
  });
}

/** Runs the supervising primary until a stop signal and every process has exited. */
export async function superviseApiProcesses(count: number, out: Output): Promise<void> {
  const stop = onStopSignal();
  answerClusterScrapes();
  let stopping = false;
  const ready = new Map<number, ReadyMessage>();
  const exited = new Set<number>();
  let announce: (() => void) | null = null;
  const allReady = new Promise<void>((resolve) => {
    announce = resolve;
  });

  const start = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (m: unknown) => {
      if (!isReadyMessage(m)) return;
      ready.set(worker.id, m);
      if (announce === null) out.info(`API process ${worker.process.pid} ready`);
      else if (ready.size === count) {
        announce();
        announce = null;
      }
    });
    worker.on('exit', (code, signal) => {
      exited.add(worker.id);
      ready.delete(worker.id);
      if (stopping) return;
      out.info(`API process ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting a replacement`);
      start();
    });
    return worker;
  };
  for (let i = 0; i < count; i++) start();

  const first = await Promise.race([allReady.then(() => null), stop.stopped]);
  if (first === null) {
    const { url, adminUrl } = [...ready.values()][0]!;
    const pids = Object.values(cluster.workers ?? {}).map((w) => w!.process.pid);
    out.info(`canmap API ready: ${count} processes (${pids.join(', ')}) at ${url}, admin ${adminUrl}/healthz`);
  }
  const signal = first ?? (await stop.stopped);
  stopping = true;
  const live = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !exited.has(w.id));
  await Promise.all(live.map((w) => new Promise<void>((resolve) => {
    w.once('exit', () => resolve());
    if (w.isConnected()) w.send(SUPERVISOR_STOP_MESSAGE);
    else resolve();
  })));
  stop.dispose();
  out.result({ stopped: true, signal, processes: count }, `canmap API stopped (${signal}): ${count} processes drained`);
}
