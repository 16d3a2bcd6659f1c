/**
 * Runs fleet-optimization searches on worker threads, never on the caller's event loop. One solve
 * runs on every thread at once with seeds options.seed, options.seed + 1, ... and returns the
 * cheapest solution (ties: the lower thread). The road work of a solve (its travel matrix and its
 * polylines, road-tasks.ts) runs on one thread. Concurrent jobs queue their tasks. An aborted
 * signal or a crashed worker rejects the job and the affected workers are replaced.
 */
import type { Worker } from 'node:worker_threads';
import type { Problem, Solution, SolveOptions } from './problem.ts';
import { roadTaskParts, type RoadResults, type RoadTasks } from './road-tasks.ts';
import type { DropMessage } from './solver-worker.ts';
import type { RoadNetwork } from '../routing/release.ts';
import { startTsWorker, WORKER_NICE } from '../../lib/ts-worker.ts';

const ENTRY = new URL('./solver-worker.ts', import.meta.url);

interface Task {
  id: number;
  /** What the worker gets besides the id: { problem, options } or { road }. */
  message: object;
  job: Job;
  index: number;
}

interface Job {
  results: unknown[];
  pending: number;
  done: boolean;
  /** The job's answer from its tasks' results. */
  combine: (results: unknown[]) => unknown;
  resolve: (s: unknown) => void;
  reject: (e: Error) => void;
  tasks: Task[];
}

interface Slot {
  worker: Worker;
  task: Task | null;
}

export function abortError(): Error {
  const e = new Error('The optimization was aborted');
  e.name = 'AbortError';
  return e;
}

export class SolverPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly threads = 2) {
    for (let i = 0; i < threads; i++) this.slots.push(this.spawn());
  }

  solve(problem: Problem, options: SolveOptions & { maxIterations?: number }, signal?: AbortSignal): Promise<Solution> {
    const messages = Array.from({ length: this.threads }, (_, i) => ({ problem, options: { ...options, seed: (options.seed + i) >>> 0, thread: i } }));
    return this.submit(messages, (results) => cheapest(results as Solution[]), signal) as Promise<Solution>;
  }

  /** One road task of a solve on one thread (the network's memory is shared, not copied). */
  road<K extends keyof RoadTasks>(network: RoadNetwork, kind: K, input: RoadTasks[K], signal?: AbortSignal): Promise<RoadResults[K]> {
    const road = { kind, input, network: roadTaskParts(network, (key) => this.dropRoad(key)) };
    return this.submit([{ road }], (results) => results[0], signal) as Promise<RoadResults[K]>;
  }

  private dropRoad(key: number): void {
    for (const slot of this.slots) slot.worker.postMessage({ dropRoad: key } satisfies DropMessage);
  }

  private submit(messages: object[], combine: Job['combine'], signal?: AbortSignal): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('SolverPool is closed'));
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise<unknown>((resolve, reject) => {
      const job: Job = { results: [], pending: messages.length, done: false, combine, resolve, reject, tasks: [] };
      messages.forEach((message, index) => {
        const task: Task = { id: this.nextId++, message, job, index };
        job.tasks.push(task);
        this.queue.push(task);
      });
      if (signal) {
        const onAbort = () => this.fail(job, abortError());
        signal.addEventListener('abort', onAbort, { once: true });
        const settle = (f: () => void) => () => {
          signal.removeEventListener('abort', onAbort);
          f();
        };
        job.resolve = (s) => settle(() => resolve(s))();
        job.reject = (e) => settle(() => reject(e))();
      }
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) this.fail(task.job, new Error('SolverPool closed'));
    for (const slot of this.slots) if (slot.task) this.fail(slot.task.job, new Error('SolverPool closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = startTsWorker(ENTRY, { nice: WORKER_NICE });
    const slot: Slot = { worker, task: null };
    worker.unref();
    worker.on('message', (m: { ready?: boolean; id?: number; result?: unknown; error?: string }) => {
      if (m.ready) return;
      const task = slot.task;
      if (!task || task.id !== m.id) return;
      slot.task = null;
      if (m.error !== undefined) this.fail(task.job, new Error(`solver worker failed: ${m.error}`));
      else this.finish(task, m.result);
      this.dispatch();
    });
    const crashed = (error: Error) => {
      if (this.closed || !this.slots.includes(slot)) return;
      const task = slot.task;
      slot.task = null;
      this.replace(slot);
      if (task) this.fail(task.job, error);
      this.dispatch();
    };
    worker.on('error', crashed);
    worker.on('exit', (code) => crashed(new Error(`solver worker exited (code ${code})`)));
    return slot;
  }

  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots[i] = this.spawn();
    const old = slot.worker;
    // Terminating fires 'exit'; the slot is no longer in the pool, so it is ignored.
    void old.terminate();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.task || this.queue.length === 0) continue;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage({ id: task.id, ...task.message });
    }
    for (const slot of this.slots) if (!slot.task) slot.worker.unref();
  }

  private finish(task: Task, result: unknown): void {
    const job = task.job;
    if (job.done) return;
    job.results[task.index] = result;
    if (--job.pending > 0) return;
    job.done = true;
    job.resolve(job.combine(job.results));
  }

  /** Rejects a job: drops its queued tasks and replaces the workers still running it. */
  private fail(job: Job, error: Error): void {
    if (job.done) return;
    job.done = true;
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i]!.job === job) this.queue.splice(i, 1);
    for (const slot of [...this.slots]) {
      if (slot.task?.job !== job) continue;
      slot.task = null;
      if (!this.closed) this.replace(slot);
    }
    job.reject(error);
    if (!this.closed) this.dispatch();
  }
}

function cheapest(solutions: Solution[]): Solution {
  let best = solutions[0]!;
  for (const s of solutions) if (s && cost(s) < cost(best)) best = s;
  return best;
}

/** Skipped mandatory shipments make a solution Infinity; among those, fewer skipped is better. */
function cost(s: Solution): number {
  return s.cost === Infinity ? 1e300 * (1 + s.skipped.length / 1e6) : s.cost;
}
