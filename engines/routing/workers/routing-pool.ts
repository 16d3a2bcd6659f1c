/**
 * Road routing on worker threads, never on the caller's event loop. Each worker views the enabled
 * release's arrays in shared memory (network-parts.ts), posted once per worker and release and
 * dropped when the release closes. A task gets `budgetMs` from when it is queued: past it, a
 * queued task is dropped and a running one's worker terminated and replaced (the shared memory
 * stays); either rejects with RoutingBudgetError. An aborted signal cancels a task the same way.
 */
import type { Worker } from 'node:worker_threads';
import type { RoadNetwork } from '../release.ts';
import { RoutingAbortError, RoutingBudgetError, RoutingPoolBusyError } from './errors.ts';
import { networkParts, type NetworkParts } from './network-parts.ts';
import type { FromWorker, ToWorker } from './routing-worker.ts';
import type { AnyTask, RoutingResults, RoutingTasks, TaskKind } from './tasks.ts';
import { startTsWorker, WORKER_NICE } from '../../../lib/ts-worker.ts';

const ENTRY = new URL('./routing-worker.ts', import.meta.url);

/** A worker that dies before it is ready is started again after this long (no tight respawn loop). */
const RESPAWN_DELAY_MS = 1000;

export interface RoutingPoolOptions {
  threads: number;
  budgetMs: number;
  /** Tasks waiting beyond this many are refused at once (RoutingPoolBusyError). */
  maxQueued?: number;
}

export interface RoutingPoolStats {
  threads: number;
  ready: number;
  busy: number;
  queued: number;
  /** Workers terminated and replaced (budget, abort or crash) since the pool started. */
  replaced: number;
  /** Releases the workers hold views of (each counted once per worker). */
  releaseViews: number;
  /** Task messages that carried a release's parts (once per worker and release, not per task). */
  partsSent: number;
}

interface Release {
  key: number;
  parts: NetworkParts;
}

interface Task {
  id: number;
  release: Release;
  task: AnyTask;
  queuedAt: number;
  timer: NodeJS.Timeout;
  settle: (error: Error | null, result?: unknown) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  /** Release keys this worker has been sent. */
  releases: Set<number>;
}

export class RoutingPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private readonly releases = new WeakMap<RoadNetwork, Release>();
  private readonly readyWaiters: (() => void)[] = [];
  private nextId = 0;
  private nextRelease = 0;
  private replaced = 0;
  private partsSent = 0;
  private closed = false;

  constructor(private readonly options: RoutingPoolOptions) {
    for (let i = 0; i < options.threads; i++) this.slots.push(this.spawn());
  }

  run<K extends TaskKind>(network: RoadNetwork, kind: K, input: RoutingTasks[K], signal?: AbortSignal): Promise<RoutingResults[K]> {
    if (this.closed) return Promise.reject(new RoutingPoolBusyError('the routing pool is closed'));
    if (signal?.aborted) return Promise.reject(new RoutingAbortError());
    if (this.queue.length >= (this.options.maxQueued ?? 100 * this.options.threads)) {
      return Promise.reject(new RoutingPoolBusyError(`${this.queue.length} routing tasks already wait`));
    }
    return new Promise<RoutingResults[K]>((resolve, reject) => {
      const onAbort = () => this.cancel(task, new RoutingAbortError());
      const task: Task = {
        id: this.nextId++,
        release: this.releaseOf(network),
        task: { kind, input } as AnyTask,
        queuedAt: performance.now(),
        timer: setTimeout(() => this.cancel(task, new RoutingBudgetError(this.slotOf(task) ? 'running' : 'queued', performance.now() - task.queuedAt)), this.options.budgetMs),
        settle: (error, result) => {
          clearTimeout(task.timer);
          signal?.removeEventListener('abort', onAbort);
          if (error) reject(error);
          else resolve(result as RoutingResults[K]);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(task);
      this.dispatch();
    });
  }

  /** Resolves once every worker has started (tests; a first request otherwise waits in the queue). */
  whenReady(): Promise<void> {
    if (this.slots.every((s) => s.ready)) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  stats(): RoutingPoolStats {
    return {
      threads: this.slots.length,
      ready: this.slots.filter((s) => s.ready).length,
      busy: this.slots.filter((s) => s.task).length,
      queued: this.queue.length,
      replaced: this.replaced,
      releaseViews: this.slots.reduce((n, s) => n + s.releases.size, 0),
      partsSent: this.partsSent,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const closing = new RoutingPoolBusyError('the routing pool closed');
    for (const task of this.queue.splice(0)) task.settle(closing);
    for (const slot of this.slots) slot.task?.settle(closing);
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  /** The network's key and parts, made on its first task; the workers drop it when the release closes. */
  private releaseOf(network: RoadNetwork): Release {
    let release = this.releases.get(network);
    if (!release) {
      release = { key: this.nextRelease++, parts: networkParts(network) };
      this.releases.set(network, release);
      const { key } = release;
      network.closed?.addEventListener('abort', () => this.drop(key), { once: true });
    }
    return release;
  }

  private drop(key: number): void {
    for (const slot of this.slots) {
      if (slot.releases.delete(key)) slot.worker.postMessage({ type: 'drop', release: key } satisfies ToWorker);
    }
  }

  private slotOf(task: Task): Slot | undefined {
    return this.slots.find((s) => s.task === task);
  }

  /** Drops a queued task, or replaces the worker running it; then rejects it. */
  private cancel(task: Task, error: Error): void {
    const queued = this.queue.indexOf(task);
    if (queued >= 0) this.queue.splice(queued, 1);
    const slot = this.slotOf(task);
    if (slot) {
      slot.task = null;
      this.replace(slot);
    }
    if (queued < 0 && !slot) return; // settled already
    task.settle(error);
    this.dispatch();
  }

  private spawn(): Slot {
    const worker = startTsWorker(ENTRY, { nice: WORKER_NICE });
    const slot: Slot = { worker, ready: false, task: null, releases: new Set() };
    worker.unref();
    worker.on('message', (m: FromWorker) => {
      if ('ready' in m) {
        slot.ready = true;
        if (this.slots.every((s) => s.ready)) for (const wake of this.readyWaiters.splice(0)) wake();
      } else {
        const task = slot.task;
        if (!task || task.id !== m.id) return;
        slot.task = null;
        if ('error' in m) task.settle(new Error(`routing worker failed: ${m.error}`));
        else task.settle(null, m.result);
      }
      this.dispatch();
    });
    const crashed = (error: Error) => {
      if (this.closed || !this.slots.includes(slot)) return;
      const task = slot.task;
      slot.task = null;
      this.replace(slot, slot.ready ? 0 : RESPAWN_DELAY_MS);
      task?.settle(error);
      this.dispatch();
    };
    worker.on('error', crashed);
    worker.on('exit', (code) => crashed(new Error(`routing worker exited (code ${code})`)));
    return slot;
  }

  private replace(slot: Slot, delayMs = 0): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.replaced++;
    // Terminating fires 'exit'; the old slot is no longer in the pool, so it is ignored.
    void slot.worker.terminate();
    if (delayMs === 0) {
      this.slots[i] = this.spawn();
      return;
    }
    const placeholder: Slot = { ...slot, ready: false, task: null, releases: new Set() };
    this.slots[i] = placeholder;
    setTimeout(() => {
      const at = this.slots.indexOf(placeholder);
      if (!this.closed && at >= 0) this.slots[at] = this.spawn();
    }, delayMs).unref();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.task || this.queue.length === 0) continue;
      const task = this.queue.shift()!;
      slot.task = task;
      const { key, parts } = task.release;
      const sendParts = !slot.releases.has(key);
      const message: ToWorker = { type: 'task', id: task.id, release: key, task: task.task, ...(sendParts ? { parts } : {}) };
      if (sendParts) this.partsSent += 1;
      slot.releases.add(key);
      slot.worker.ref();
      slot.worker.postMessage(message);
    }
    for (const slot of this.slots) if (!slot.task) slot.worker.unref();
  }
}
