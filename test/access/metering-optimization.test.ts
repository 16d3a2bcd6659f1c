import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallMeter } from '../../api/access/call-meter.ts';
import { createMeterHook } from '../../api/access/meter-hook.ts';
import type { MeterJournal } from '../../io/access/meter-journal.ts';
import {
  BILLABLE_QUERIES_HEADER, BILLABLE_SHIPMENTS_HEADER, createMetering, isOptimizationPath, OPTIMIZATION_FAMILY, type MeterEvent,
} from '../../engines/access/metering.ts';
import type { KeyRecord } from '../../lib/keys.ts';
import '../../api/fastify-types.ts';

/**
 * Optimization's metering (volume 3 Billing 1, 2 and 4) through the real onSend hook, on a bare
 * Fastify with stand-in routes (the real route lives in api/routes/optimization/), so what the
 * meter does with each answer is seen without solving anything.
 */
const KEY: KeyRecord = { id: 'key_opt', accountId: 'acme-opt', plan: 'indie', addons: [], allowedOrigins: [] };
const PATHS = [
  '/optimize',
  '/v1/projects/my-project:optimizeTours',
  '/v1/projects/my-project/locations/ca-central:optimizeTours',
  '/projects/p:optimizeTours',
  '/projects/p/locations/l:optimizeTours',
];

const events: MeterEvent[] = [];
const journal: MeterJournal = {
  record(event, written) {
    events.push(event);
    written();
  },
  flush: async () => {},
  close: async () => {},
} as MeterJournal;
let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  app.decorateRequest('apiKey', null);
  app.decorateRequest('premium', false);
  app.addHook('onRequest', async (request) => {
    request.apiKey = request.headers.authorization ? KEY : null;
  });
  app.addHook('onSend', createMeterHook(createCallMeter({ journal, metering: createMetering(), now: () => Date.UTC(2026, 10, 26, 12) })));
  // Stand-in for the route: ?status= and ?billed= say what it answers.
  app.post('/*', async (request, reply) => {
    const { status = '200', billed } = request.query as { status?: string; billed?: string };
    if (billed !== undefined) reply.header(BILLABLE_SHIPMENTS_HEADER, billed);
    return reply.code(Number(status)).send({});
  });
  app.get('/*', async () => ({}));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
});

async function meter(url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST'): Promise<MeterEvent[]> {
  events.length = 0;
  const answer = await app.inject({ method, url, headers: { authorization: 'Bearer x', ...headers }, payload: method === 'POST' ? {} : undefined });
  expect(answer.statusCode).toBeGreaterThan(0);
  return events.map((e) => ({ ...e }));
}

describe('optimization metering', () => {
  it('all five paths are the optimization family; a 200 counts its X-Svc-Billable-Shipments value', async () => {
    for (const path of PATHS) {
      expect(await meter(`${path}?billed=7`)).toEqual([
        { day: '2026-11-26', keyId: 'key_opt', accountId: 'acme-opt', family: OPTIMIZATION_FAMILY, dev: false, calls: 7, premium: 0 },
      ]);
    }
  });

  it('a 200 billing nothing (all re-solved or skipped, VALIDATE_ONLY) is no call; so is one without the header', async () => {
    expect(await meter('/optimize?billed=0')).toEqual([]);
    expect(await meter('/optimize')).toEqual([]);
    expect(await meter('/optimize?billed=junk')).toEqual([]);
  });

  it('every non-200 answer is free, whatever header it carries (Billing 2)', async () => {
    for (const status of [400, 404, 413, 429, 500, 503, 504]) {
      expect(await meter(`/optimize?status=${status}&billed=5`)).toEqual([]);
      expect(await meter(`/v1/projects/p:optimizeTours?status=${status}&billed=5`)).toEqual([]);
    }
  });

  it('dev-origin requests are billed like any other (Billing 4); other families from dev origins stay dev', async () => {
    const fromDev = { origin: 'http://localhost:5173' };
    expect(await meter('/optimize?billed=3', fromDev)).toMatchObject([{ family: 'optimization', dev: false, calls: 3 }]);
    expect(await meter('/projects/p:optimizeTours?billed=2', { referer: 'https://preview.app.pages.dev/map' }))
      .toMatchObject([{ family: 'optimization', dev: false, calls: 2 }]);
    expect(await meter('/geocode/search?q=x', fromDev, 'GET')).toMatchObject([{ family: 'geocode', dev: true, calls: 1 }]);
  });

  it('other paths keep their rules: the shipments header means nothing there, the batch header still counts', () => {
    const { callsOf, familyOf } = createMetering();
    expect(callsOf({ method: 'POST', path: '/geocode/batch', statusCode: 200, billableQueries: '3', billableShipments: '9' })).toBe(3);
    expect(callsOf({ method: 'POST', path: '/geocode/batch', statusCode: 400 })).toBe(1);
    expect(callsOf({ method: 'GET', path: '/v1/other', statusCode: 404, billableShipments: '9' })).toBe(1);
    expect(callsOf({ method: 'POST', path: '/optimize', statusCode: 200, billableQueries: '4' })).toBe(0);
    expect(callsOf({ method: 'POST', path: '/optimize', statusCode: 200, billableShipments: ['1', '2'] })).toBe(0);
    expect(BILLABLE_QUERIES_HEADER).toBe('x-billable-queries');
    expect(BILLABLE_SHIPMENTS_HEADER.toLowerCase()).toBe('x-svc-billable-shipments');
    expect(['/v1', '/v1/projects', '/projects/p', '/projects/p/locations/l', '/optimize/x', '/optimizer', '/v1/optimize', '/projects/p/x:optimizeTours'].map(familyOf))
      .toEqual(['other', 'other', 'other', 'other', 'other', 'other', 'other', 'other']);
  });

  it('path shapes: any :method suffix on an alias (answered 404 NOT_FOUND by the route) is this endpoint', () => {
    expect(PATHS.every(isOptimizationPath)).toBe(true);
    expect(isOptimizationPath('/v1/projects/p:batchOptimizeTours')).toBe(true);
    expect(isOptimizationPath('/v1/projects/p%3AoptimizeTours')).toBe(true);
    expect(isOptimizationPath('/v1/projects/:optimizeTours')).toBe(false);
    expect(isOptimizationPath('/v1/projects/p/locations/:optimizeTours')).toBe(false);
    expect(isOptimizationPath('/v2/projects/p:optimizeTours')).toBe(false);
  });
});
