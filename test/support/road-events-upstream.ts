import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { repoPath, sharedData } from './paths.ts';

export const OPEN511_SAMPLES = sharedData('open511/drivebc-bcgov');
export const FIXTURES = repoPath('samples/road-events');

/** A real DriveBC answer (`four`, `four_updated`, `five_with_validation_error`, ...) as text. */
export const drivebc = (name: string) => readFileSync(path.join(OPEN511_SAMPLES, `event_event_feed_list_of_${name}.json`), 'utf8');
export const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

/** One scripted answer of the fake publisher. */
export interface Scripted {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait before answering. */
  delayMs?: number;
  /** Send headers and part of the body, then stall for this long. */
  stallBodyMs?: number;
  /** Stream an empty Open511 document padded with spaces to this many bytes, without Content-Length (see `streams`). */
  streamBytes?: number;
}

/** One streamed answer: how much of it was written before it ended or the client went away. */
export interface StreamedAnswer {
  size: number;
  written: number;
  closed: boolean;
}

type Handler = (url: URL) => Scripted;

/**
 * A publisher on 127.0.0.1 replaying scripted answers per path: `script(path, ...answers)` queues
 * answers (the last one repeats), `handle(path, fn)` computes them from the request URL.
 * Every request is recorded.
 */
export class FakePublisher {
  readonly requests: URL[] = [];
  /** Requests being answered now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  readonly streams: StreamedAnswer[] = [];
  private readonly queues = new Map<string, Scripted[]>();
  private readonly handlers = new Map<string, Handler>();
  private readonly sockets = new Set<import('node:net').Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters: { count: number; resolve: () => void }[] = [];

  private constructor(private readonly server: Server, readonly origin: string) {}

  static async start(): Promise<FakePublisher> {
    let publisher!: FakePublisher;
    const server = createServer((req, res) => publisher.answer(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    publisher = new FakePublisher(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (s) => {
      publisher.sockets.add(s);
      s.on('close', () => publisher.sockets.delete(s));
    });
    return publisher;
  }

  url(p: string): string {
    return `${this.origin}${p}`;
  }

  script(p: string, ...answers: Scripted[]): this {
    this.handlers.delete(p);
    this.queues.set(p, [...answers]);
    return this;
  }

  handle(p: string, fn: Handler): this {
    this.queues.delete(p);
    this.handlers.set(p, fn);
    return this;
  }

  requestsTo(p: string): URL[] {
    return this.requests.filter((u) => u.pathname === p);
  }

  /** Resolves once `count` requests in all have arrived (at once if they have). */
  requestsReached(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  private later(fn: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.origin);
    this.requests.push(url);
    for (const w of this.waiters.filter((w) => this.requests.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    res.on('close', () => this.inFlight--);
    const handler = this.handlers.get(url.pathname);
    const queue = this.queues.get(url.pathname);
    const scripted: Scripted = handler ? handler(url) : queue?.length ? (queue.length > 1 ? queue.shift()! : queue[0]!) : { status: 404, body: 'not found' };
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(scripted.status ?? 200, { 'content-type': 'application/json', ...scripted.headers });
      const body = scripted.body ?? '';
      if (scripted.streamBytes) return this.stream(res, scripted.streamBytes);
      if (scripted.stallBodyMs) {
        res.write(body.slice(0, Math.floor(body.length / 2)));
        this.later(() => res.end(body.slice(Math.floor(body.length / 2))), scripted.stallBodyMs);
        return;
      }
      res.end(body);
    };
    if (scripted.delayMs) this.later(send, scripted.delayMs);
    else send();
  }

  /** Writes 64 KiB chunks as fast as the client reads them, until `size` bytes or the client is gone. */
  private stream(res: ServerResponse, size: number): void {
    const record: StreamedAnswer = { size, written: 0, closed: false };
    this.streams.push(record);
    res.on('close', () => (record.closed = true));
    const head = open511Page([]);
    const chunk = Buffer.alloc(64 * 1024, ' ');
    res.write(head);
    record.written = Buffer.byteLength(head);
    const pump = () => {
      while (!res.destroyed) {
        const left = size - record.written;
        if (left <= 0) return void res.end();
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        record.written += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
    };
    pump();
  }

  /** Stops: pending delayed answers are dropped and open connections cut. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** An Open511 events document around `events`. */
export function open511Page(events: unknown[], pagination: Record<string, unknown> = { offset: '0' }): string {
  return JSON.stringify({ events, pagination, meta: { url: '/events', up_url: '', version: 'v1' } });
}
