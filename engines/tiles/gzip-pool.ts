import os from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Gzip on worker threads, a batch of tiles at a time (one buffer each way, transferred, not
 * copied), so the tiler's own thread only makes tiles. One worker per core beyond the first.
 * Batches come back in the order they were sent to one worker; callers keep their own order.
 */

// Plain CommonJS, evaluated: no loader or build step needed in the worker.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
parentPort.on('message', ({ id, buffer, lengths }) => {
  try {
    const input = new Uint8Array(buffer);
    const outputs = [];
    let offset = 0;
    let total = 0;
    for (const n of lengths) {
      const out = gzipSync(input.subarray(offset, offset + n));
      outputs.push(out);
      total += out.length;
      offset += n;
    }
    const packed = new Uint8Array(total);
    let at = 0;
    for (const out of outputs) { packed.set(out, at); at += out.length; }
    parentPort.postMessage({ id, buffer: packed.buffer, lengths: outputs.map((o) => o.length) }, [packed.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.stack || error) });
  }
});
`;

interface Reply {
  id: number;
  buffer?: ArrayBuffer;
  lengths?: number[];
  error?: string;
}

export class GzipPool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, { resolve: (out: Uint8Array[]) => void; reject: (e: Error) => void }>();
  private readonly load: number[];
  private nextId = 0;
  /** Set once a worker failed or the pool closed: every batch from then on is refused. */
  private broken: Error | null = null;

  constructor(threads = Math.max(1, os.availableParallelism() - 1)) {
    this.workers = Array.from({ length: threads }, () => {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.on('message', (reply: Reply) => this.settle(reply));
      worker.on('error', (error) => this.failAll(error));
      worker.on('exit', (code) => this.failAll(new Error(`a gzip worker exited (code ${code})`)));
      return worker;
    });
    this.load = this.workers.map(() => 0);
  }

  /** The tiles gzip-compressed, in the same order. */
  gzipBatch(tiles: readonly Uint8Array[]): Promise<Uint8Array[]> {
    if (this.broken) return Promise.reject(this.broken);
    const total = tiles.reduce((n, t) => n + t.length, 0);
    const packed = new Uint8Array(total);
    let at = 0;
    for (const t of tiles) {
      packed.set(t, at);
      at += t.length;
    }
    const w = this.load.indexOf(Math.min(...this.load));
    const id = this.nextId++;
    this.load[w]! += 1;
    return new Promise<Uint8Array[]>((resolve, reject) => {
      this.waiting.set(id, {
        resolve: (out) => {
          this.load[w]! -= 1;
          resolve(out);
        },
        reject,
      });
      this.workers[w]!.postMessage({ id, buffer: packed.buffer, lengths: tiles.map((t) => t.length) }, [packed.buffer]);
    });
  }

  async close(): Promise<void> {
    this.failAll(new Error('the gzip pool was closed'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private settle({ id, buffer, lengths, error }: Reply): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    if (error !== undefined || !buffer || !lengths) {
      waiter.reject(new Error(`gzip worker: ${error}`));
      return;
    }
    const out: Uint8Array[] = [];
    let offset = 0;
    for (const n of lengths) {
      out.push(new Uint8Array(buffer, offset, n));
      offset += n;
    }
    waiter.resolve(out);
  }

  private failAll(error: Error): void {
    this.broken ??= error;
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }
}
