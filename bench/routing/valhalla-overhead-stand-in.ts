/**
 * The benchmark's stand-in Valhalla on 127.0.0.1 (a free port of its own): each POST is answered
 * at once with the prepared answer (JSON text made before timing) of its action and request
 * positions: `shape` for /trace_attributes, `locations` for /optimized_route. It parses the
 * request only to find the key. The raw body of the first request per key is kept, so a bare POST
 * of exactly what our client sends can be timed (`bareRoundTrip`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { positionsKey } from './valhalla-overhead-requests.ts';

type Action = 'trace_attributes' | 'optimized_route';

export class KeyedStandIn {
  private readonly answers = new Map<string, string>();
  /** The raw request body per action and key, as our client sent it. */
  readonly requests = new Map<string, string>();
  misses = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server, readonly origin: string) {}

  static async start(): Promise<KeyedStandIn> {
    let standIn!: KeyedStandIn;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const action = (req.url ?? '').replace(/^\/+/, '').split('?')[0]!;
        const key = standIn.keyOf(action, text);
        const answer = key === null ? undefined : standIn.answers.get(key);
        if (answer === undefined) {
          standIn.misses++;
          res.writeHead(599, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `stand-in: nothing prepared for ${action}` }));
          return;
        }
        if (!standIn.requests.has(key!)) standIn.requests.set(key!, text);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) }).end(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn = new KeyedStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (socket) => {
      standIn.sockets.add(socket);
      socket.on('close', () => standIn.sockets.delete(socket));
    });
    return standIn;
  }

  /** Prepares the answer (JSON) of `action` for the request whose positions are `positions`. */
  prepare(action: Action, positions: readonly { lng: number; lat: number }[], json: unknown): void {
    this.answers.set(`${action} ${positionsKey(positions)}`, JSON.stringify(json));
  }

  /** The key of a request body; null when it has no positions. */
  private keyOf(action: string, text: string): string | null {
    try {
      const body = JSON.parse(text) as { shape?: { lat: number; lon: number }[]; locations?: { lat: number; lon: number }[] };
      const positions = action === 'trace_attributes' ? body.shape : body.locations;
      return positions ? `${action} ${positionsKey(positions.map((p) => ({ lng: p.lon, lat: p.lat })))}` : null;
    } catch {
      return null;
    }
  }

  /** The raw body our client sent for `positions` (after one request through the API). */
  sentFor(action: Action, positions: readonly { lng: number; lat: number }[]): string | undefined {
    return this.requests.get(`${action} ${positionsKey(positions)}`);
  }

  /** Milliseconds of one bare POST of `body` to `action` (fetch, keep-alive) until its answer text is read. */
  async bareRoundTrip(action: Action, body: string): Promise<number> {
    const started = performance.now();
    const response = await fetch(`${this.origin}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
    });
    await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`stand-in answered ${response.status} to a bare ${action}`);
    return ms;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
