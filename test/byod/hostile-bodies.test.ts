import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, openDescriptors, rawRequest, type RawAnswer } from '../support/raw-http.ts';
import { ByodApi } from './byod-api.ts';

/*
 * POST /byod against bodies that end wrong, over real sockets: a multipart form without its closing
 * boundary is a prompt 400; a body that goes quiet is a 408 after BODY_IDLE_TIMEOUT_SECONDS (1 s
 * here) and a closed connection, and so is one dripped past BODY_TIMEOUT_SECONDS (4 s here); a client that goes away mid-body leaves no descriptor and no
 * temporary file. Every case ends with .incoming/ empty and no descriptor open under BYOD_DIR.
 */

let api: ByodApi;
let key: string;
let origin: string;
const BOUNDARY = 'canmapHostileBoundary';
const POINT = '{"type":"Point","coordinates":[-123.1,49.3]}';
const MISSING_BOUNDARY = 'incomplete multipart body: it ended before the closing boundary of the form';
const TIMED_OUT = 'request body timed out: nothing arrived for 1 s; send the body without pausing';

beforeAll(async () => {
  api = await ByodApi.start('byod_hostile', { BODY_IDLE_TIMEOUT_SECONDS: '1', BODY_TIMEOUT_SECONDS: '4' });
  key = await api.key({ accountId: 'hostile' });
  origin = await api.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => api?.close());

const incoming = async () => readdir(path.join(api.byodDir, '.incoming')).catch(() => [] as string[]);

/** Waits (up to 3 s) for the server to let go of every temporary file and descriptor, then checks it did. */
async function nothingLeft(): Promise<void> {
  for (let i = 0; i < 60 && ((await incoming()).length > 0 || (await openDescriptors(api.byodDir)).matching.length > 0); i += 1) await sleep(50);
  expect(await incoming()).toEqual([]);
  expect((await openDescriptors(api.byodDir)).matching).toEqual([]);
}

const multipartHeaders = (length?: number): Record<string, string> => ({
  authorization: `Bearer ${key}`,
  'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
  ...(length === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(length) }),
});

const chunked = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);

describe('a multipart body without its closing boundary', () => {
  it('is 400 as soon as its Content-Length is read, and the connection closes', async () => {
    const body = multipartBody(BOUNDARY, POINT, { close: false });
    const exchange = await rawRequest(origin, { path: '/byod', headers: multipartHeaders(body.length) }, body);
    const answer = await exchange.answer(10_000);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: MISSING_BOUNDARY });
    expect(answer.headers.connection).toBe('close');
    // Well inside the 1 s body timeout: the 400 does not wait for it.
    expect(answer.answeredAfterMs).toBeLessThan(900);
    expect(answer.closedAfterMs).not.toBeNull();
    await nothingLeft();
  });

  it('is the same 400 for a chunked body that ends without it', async () => {
    const exchange = await rawRequest(origin, { path: '/byod', headers: multipartHeaders() },
      Buffer.concat([chunked(multipartBody(BOUNDARY, POINT, { close: false })), Buffer.from('0\r\n\r\n')]));
    const answer = await exchange.answer(10_000);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: MISSING_BOUNDARY });
    expect(answer.answeredAfterMs).toBeLessThan(900);
    await nothingLeft();
  });

  it('is the same 400 when the body ends inside the part headers', async () => {
    const body = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filena`);
    const answer = await (await rawRequest(origin, { path: '/byod', headers: multipartHeaders(body.length) }, body)).answer(10_000);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: MISSING_BOUNDARY });
    await nothingLeft();
  });

  it('leaves the server serving complete forms', async () => {
    const body = multipartBody(BOUNDARY, POINT);
    const answer = await (await rawRequest(origin, { path: '/byod', headers: { ...multipartHeaders(body.length), connection: 'close' } }, body)).answer(10_000);
    expect(answer.status).toBe(201);
    await nothingLeft();
  });
});

describe('a body that goes quiet', () => {
  const stalled = async (headers: Record<string, string>, part: Buffer | string, url = '/byod'): Promise<RawAnswer> => {
    const exchange = await rawRequest(origin, { path: url, headers }, part);
    const answer = await exchange.answer(10_000);
    exchange.socket.destroy();
    return answer;
  };
  const timedOut = (answer: RawAnswer) => {
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ error: TIMED_OUT });
    expect(answer.headers.connection).toBe('close');
    // BODY_IDLE_TIMEOUT_SECONDS is 1: not before it, and nowhere near the minutes of no timeout.
    expect(answer.answeredAfterMs).toBeGreaterThanOrEqual(900);
    expect(answer.answeredAfterMs).toBeLessThan(5000);
    expect(answer.closedAfterMs).not.toBeNull();
  };

  it('is 408 and closed for a raw GeoJSON body stopped short of its Content-Length', async () => {
    timedOut(await stalled({ authorization: `Bearer ${key}`, 'content-type': 'application/geo+json', 'content-length': '100000' }, POINT.padEnd(20_000, ' ')));
    await nothingLeft();
  });

  it('is 408 and closed for a chunked body that sends no last chunk', async () => {
    timedOut(await stalled({ authorization: `Bearer ${key}`, 'content-type': 'application/geo+json', 'transfer-encoding': 'chunked' }, chunked(Buffer.from(POINT))));
    await nothingLeft();
  });

  it('is 408 and closed for a multipart body stopped inside its file', async () => {
    const body = multipartBody(BOUNDARY, POINT.padEnd(50_000, ' '), { close: false });
    timedOut(await stalled(multipartHeaders(body.length + 100_000), body));
    await nothingLeft();
  });

  it('is 408 and closed when nothing of the body comes after the headers', async () => {
    timedOut(await stalled(multipartHeaders(5000), ''));
    await nothingLeft();
  });

  it('is the same 408 for a JSON body of another route', async () => {
    timedOut(await stalled({ authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': '500' }, '{"queries":[', '/geocode/batch'));
  });

  it('does not cut off a slow body that keeps coming', async () => {
    const body = Buffer.from(JSON.stringify({ type: 'Feature', properties: {}, geometry: JSON.parse(POINT) }).padEnd(3000, ' '));
    const exchange = await rawRequest(origin, {
      path: '/byod',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json', 'content-length': String(body.length), connection: 'close' },
    }, body.subarray(0, 1000));
    // 2.4 s in all, past the 1 s idle timeout, but never 1 s without a byte.
    for (const at of [1000, 2000]) {
      await sleep(600);
      exchange.socket.write(body.subarray(at, at + 1000));
    }
    await sleep(600);
    const answer = await exchange.answer(10_000);
    expect(answer.status).toBe(201);
    await nothingLeft();
  });

  it('is 408 and closed for a body dripped a byte at a time, never idle, past BODY_TIMEOUT_SECONDS', async () => {
    const exchange = await rawRequest(origin, {
      path: '/byod',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json', 'content-length': '100000' },
    }, '{');
    const drip = setInterval(() => exchange.socket.writable && exchange.socket.write(' '), 200);
    try {
      const answer = await exchange.answer(15_000);
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toEqual({ error: 'request body timed out: it did not arrive whole within 4 s; send it at a steady pace' });
      expect(answer.headers.connection).toBe('close');
      expect(answer.answeredAfterMs).toBeGreaterThanOrEqual(3900);
      expect(answer.answeredAfterMs).toBeLessThan(8000);
    } finally {
      clearInterval(drip);
      exchange.socket.destroy();
    }
    await nothingLeft();
  });
});

describe('clients that go away mid-body', () => {
  it('a client that half-closes short of its Content-Length is answered 400 and closed at once', async () => {
    for (const headers of [
      { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json', 'content-length': '100000' },
      multipartHeaders(100_000),
    ]) {
      const exchange = await rawRequest(origin, { path: '/byod', headers }, multipartBody(BOUNDARY, POINT.padEnd(20_000, ' '), { close: false }));
      await sleep(100);
      exchange.socket.end();
      const answer = await exchange.answer(5000);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ error: 'incomplete body: the connection ended before its Content-Length or last chunk' });
      expect(answer.closedAfterMs).toBeLessThan(900);
      await nothingLeft();
    }
  });

  it('leave no descriptor and no temporary file after 20 aborted uploads', async () => {
    // A first request opens what the server keeps for good (a pool connection).
    const warm = await rawRequest(origin, { method: 'GET', path: '/byod', headers: { authorization: `Bearer ${key}`, connection: 'close' } });
    expect((await warm.answer(10_000)).status).toBe(200);
    await nothingLeft();
    const before = await openDescriptors(api.byodDir);
    const poolBefore = api.pool.totalCount;
    for (let i = 0; i < 20; i += 1) {
      const multipart = i % 2 === 0;
      const part = multipart ? multipartBody(BOUNDARY, POINT.padEnd(30_000, ' '), { close: false }) : Buffer.from(POINT.padEnd(30_000, ' '));
      const headers = multipart
        ? multipartHeaders(part.length + 100_000)
        : { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json', 'content-length': String(part.length + 100_000) };
      const exchange = await rawRequest(origin, { path: '/byod', headers }, part);
      // Half go away at once (while the server is still opening its temporary file), half a moment later.
      if (i % 4 >= 2) await sleep(100);
      exchange.socket.destroy();
    }
    await nothingLeft();
    // No more descriptors than before (the client sockets closed too), but for connections the
    // database pool opened for requests that overlapped.
    const bound = () => before.count + api.pool.totalCount - poolBefore;
    for (let i = 0; i < 40 && (await openDescriptors(api.byodDir)).count > bound(); i += 1) await sleep(50);
    expect((await openDescriptors(api.byodDir)).count).toBeLessThanOrEqual(bound());
  });
});
