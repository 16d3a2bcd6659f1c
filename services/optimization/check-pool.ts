/**
 * The checks of a large /optimize body (check-body.ts: count limits, the request, the billing
 * gate's shipment identities) on one worker thread: for 2,000 shipments they take tens of milliseconds on an idle machine and several
 * hundred on a crowded one, which the event loop must not be held for. Small bodies are checked in
 * place (a round trip costs more than they do); a worker that fails or dies is replaced and its
 * body checked in place, so the answer is the same either way.
 */
import type { Worker } from 'node:worker_threads';
import { checkBody, type BodyCheckOptions, type CheckedBody } from './check-body.ts';
import type { CheckTask } from './check-worker.ts';
import { startTsWorker, WORKER_NICE } from '../../lib/ts-worker.ts';

const ENTRY = new URL('./check-worker.ts', import.meta.url);

/** Bodies with fewer shipments than this are checked on the caller's thread. */
export const IN_PLACE_BELOW_SHIPMENTS = 200;

interface Pending {
  task: CheckTask;
  resolve: (r: CheckedBody) => void;
}

function shipmentCount(body: unknown): number {
  const model = (body as { model?: { shipments?: unknown } } | null)?.model;
  return Array.isArray(model?.shipments) ? model.shipments.length : 0;
}

export class CheckPool {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  check(body: unknown, options: BodyCheckOptions): Promise<CheckedBody> {
    if (this.closed || shipmentCount(body) < IN_PLACE_BELOW_SHIPMENTS) return Promise.resolve(checkBody(body, options));
    return new Promise((resolve) => {
      const task: CheckTask = { id: this.nextId++, body, options };
      this.pending.set(task.id, { task, resolve });
      const worker = this.started();
      worker.ref();
      worker.postMessage(task);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.settleInPlace();
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startTsWorker(ENTRY, { nice: WORKER_NICE });
    worker.on('message', (m: { id: number; result?: CheckedBody; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      p.resolve(m.result ?? checkBody(p.task.body, p.task.options));
      if (this.pending.size === 0) worker.unref();
    });
    const died = () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.settleInPlace();
    };
    worker.on('error', died);
    worker.on('exit', died);
    this.worker = worker;
    return worker;
  }

  /** Checks every body still waiting on the caller's thread (the worker is gone). */
  private settleInPlace(): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.resolve(checkBody(p.task.body, p.task.options));
    }
  }
}
