/**
 * Checks uploaded files (GeoJSON: readGeoJson; PMTiles: checkPmtiles) on worker threads, never on
 * the API's event loop, each within a time budget and a heap ceiling: a check over either is
 * refused (QueryError, a 400) and its worker replaced. Workers start on first use; checks beyond
 * `threads` wait their turn (the budget counts from when a worker begins the check).
 */
import type { Worker } from 'node:worker_threads';
import { QueryError } from '../../lib/query-error.ts';
import type { ByodKind } from '../../schemas/byod-api.ts';
import type { CheckedArchive } from './pmtiles-check.ts';
import { startTsWorker, WORKER_NICE } from '../../lib/ts-worker.ts';

const ENTRY = new URL('./upload-check-worker.ts', import.meta.url);

/** The check could not run to an answer (the checker closed, a worker crashed): not the file's fault. */
export class UploadCheckUnavailableError extends Error {
  override readonly name = 'UploadCheckUnavailableError';
}

export interface UploadCheckTask {
  id: number;
  path: string;
  kind: ByodKind;
}

export interface CheckReply {
  id: number;
  /** The worker began the check: its time budget starts now (a worker's own start-up is not counted). */
  started?: boolean;
  archive?: CheckedArchive;
  refusal?: string;
  error?: string;
}

export interface UploadCheckOptions {
  threads: number;
  /** Longest a check may run, from when its worker begins it. */
  budgetMs: number;
  /** Heap ceiling of a worker (old generation), in MB. */
  heapMb: number;
}

export const UPLOAD_CHECK_DEFAULTS: UploadCheckOptions = { threads: 1, budgetMs: 20_000, heapMb: 512 };

interface Pending {
  task: UploadCheckTask;
  resolve: (archive: CheckedArchive | null) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  current: Pending | null;
  timer?: NodeJS.Timeout;
}

const LABEL: Readonly<Record<ByodKind, string>> = { geojson: 'GeoJSON', pmtiles: 'PMTiles' };

export class UploadChecker {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: UploadCheckOptions = UPLOAD_CHECK_DEFAULTS) {}

  /** The checked archive of a PMTiles file, null for a GeoJSON file; a refusal rejects with a QueryError. */
  check(path: string, kind: ByodKind): Promise<CheckedArchive | null> {
    if (this.closed) return Promise.reject(new UploadCheckUnavailableError('the upload checker is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ task: { id: this.nextId++, path, kind }, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new UploadCheckUnavailableError('the upload checker closed'));
    const slots = this.slots.splice(0);
    for (const slot of slots) this.settle(slot, (p) => p.reject(new UploadCheckUnavailableError('the upload checker closed')));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot = this.slots.find((s) => !s.current);
      if (!slot && this.slots.length < this.options.threads) this.slots.push(slot = this.spawn());
      if (!slot) return;
      const pending = this.queue.shift()!;
      slot.current = pending;
      slot.worker.ref();
      slot.worker.postMessage(pending.task);
    }
  }

  private spawn(): Slot {
    const worker = startTsWorker(ENTRY, { nice: WORKER_NICE, resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb } });
    const slot: Slot = { worker, current: null };
    worker.unref();
    worker.on('message', (reply: CheckReply) => {
      if (slot.current?.task.id !== reply.id) return;
      const kind = slot.current.task.kind;
      if (reply.started) {
        slot.timer = setTimeout(() => this.fail(slot, new QueryError(
          `${LABEL[kind]} check took longer than ${this.options.budgetMs / 1000} s, the limit for checking an upload; send a smaller or simpler file`,
        )), this.options.budgetMs);
        return;
      }
      this.settle(slot, (p) => {
        if (reply.refusal !== undefined) p.reject(new QueryError(reply.refusal));
        else if (reply.error !== undefined) p.reject(new UploadCheckUnavailableError(`${LABEL[kind]} check failed: ${reply.error}`));
        else p.resolve(reply.archive ?? null);
      });
      worker.unref();
      this.dispatch();
    });
    worker.on('error', (err: Error & { code?: string }) => this.fail(slot, err.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? new QueryError(`${LABEL[slot.current?.task.kind ?? 'geojson']} check needs more than ${this.options.heapMb} MB of memory, the limit for checking an upload; send a smaller or simpler file`)
      : new UploadCheckUnavailableError(`upload check worker failed: ${err.message}`)));
    worker.on('exit', (code) => this.fail(slot, new UploadCheckUnavailableError(`upload check worker exited (code ${code})`)));
    return slot;
  }

  /** Ends the slot's check (if any) with `finish`. */
  private settle(slot: Slot, finish: (p: Pending) => void): void {
    clearTimeout(slot.timer);
    const pending = slot.current;
    slot.current = null;
    if (pending) finish(pending);
  }

  /** Rejects the slot's check and replaces its worker (a worker over its budget may be stuck in a loop). */
  private fail(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    this.settle(slot, (p) => p.reject(err));
    void slot.worker.terminate();
    this.dispatch();
  }
}
