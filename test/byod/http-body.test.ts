import { request } from 'node:http';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByodApi } from './byod-api.ts';

/*
 * POST /byod over a real socket: an oversized body without Content-Length is answered 400 while
 * the client is still sending, the server stops reading and closes the connection; a client that
 * goes away mid-body leaves no temporary file.
 */

let api: ByodApi;
let key: string;
let origin: string;

beforeAll(async () => {
  api = await ByodApi.start('byod_http');
  key = await api.key({ accountId: 'streamer' });
  origin = await api.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => api?.close());

const incoming = async () => readdir(path.join(api.byodDir, '.incoming')).catch(() => [] as string[]);

describe('a body over 5 MB on a real connection', () => {
  it('is answered 400 before the client finishes, and the server reads no further', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    const answer = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const req = request(`${origin}/byod`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json', 'transfer-encoding': 'chunked' },
      }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
      });
      req.on('error', reject);
      // Offer 200 MB, as fast as the socket takes it; stop when the answer has come.
      const pump = () => {
        while (written < 200 * 1024 * 1024 && !req.destroyed) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'file is over 5 MB: an uploaded overlay may have at most 5242880 bytes' });
    expect(answer.connection).toBe('close');
    // Socket buffers hold a few MB at most: nowhere near the 200 MB on offer.
    expect(written).toBeLessThan(40 * 1024 * 1024);
    expect(await incoming()).toEqual([]);
  });
});

describe('a client that goes away mid-body', () => {
  it('leaves no temporary file and no overlay', async () => {
    const rows = await api.rows();
    const req = request(`${origin}/byod`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json', 'content-length': '1000000' },
    });
    req.on('error', () => {});
    req.write(Buffer.alloc(300_000, 0x20));
    await sleep(200);
    expect((await incoming()).length).toBe(1); // being received
    req.destroy();
    for (let i = 0; i < 50 && (await incoming()).length > 0; i += 1) await sleep(50);
    expect(await incoming()).toEqual([]);
    expect(await api.rows()).toBe(rows);
    // The server is fine afterwards.
    const res = await fetch(`${origin}/byod`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
  });
});
