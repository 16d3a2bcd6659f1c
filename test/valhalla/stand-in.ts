import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RECORDED = path.join(path.dirname(fileURLToPath(import.meta.url)), 'recorded');

/** A recorded Valhalla answer (test/valhalla/recorded/<name>.json), parsed. */
export const recorded = (name: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, `${name}.json`), 'utf8'));

/** One scripted answer: a status and JSON (or raw text), or no answer at all. */
export interface Scripted {
  status?: number;
  json?: unknown;
  text?: string;
  /** Never answer (the client's timeout must end the call). */
  hang?: boolean;
}

export interface Received {
  method: string;
  path: string;
  body: unknown;
}

/**
 * A stand-in Valhalla on 127.0.0.1 (its own port per run): every request is recorded with its
 * parsed JSON body, and answered from the queue of its path (`answer(path, ...)`), else a 599 the
 * client treats as a Valhalla failure. Tests check the requests with `take()`.
 */
export class StandIn {
  private received: Received[] = [];
  private readonly queues = new Map<string, Scripted[]>();
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server, readonly origin: string) {}

  static async start(): Promise<StandIn> {
    let standIn!: StandIn;
    const server = createServer((req, res) => standIn.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn = new StandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (socket) => {
      standIn.sockets.add(socket);
      socket.on('close', () => standIn.sockets.delete(socket));
    });
    return standIn;
  }

  /** Queues answers for `path` (e.g. '/route'), one per request, in order. */
  answer(path: string, ...answers: Scripted[]): this {
    this.queues.set(path, [...(this.queues.get(path) ?? []), ...answers]);
    return this;
  }

  /** The requests received since the last take, and forgets them (and any unused answers). */
  take(): Received[] {
    const received = this.received;
    this.received = [];
    this.queues.clear();
    return received;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch { /* recorded as text */ }
      const url = new URL(req.url ?? '/', this.origin);
      this.received.push({ method: req.method ?? '', path: url.pathname, body });
      const scripted = this.queues.get(url.pathname)?.shift();
      if (!scripted) {
        res.writeHead(599, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `stand-in: nothing scripted for ${url.pathname}` }));
        return;
      }
      if (scripted.hang) return;
      const payload = scripted.text ?? JSON.stringify(scripted.json);
      res.writeHead(scripted.status ?? 200, { 'content-type': scripted.text === undefined ? 'application/json' : 'text/plain' }).end(payload);
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** An origin on 127.0.0.1 where nothing listens (connection refused): a port just freed. */
export async function refusingOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
