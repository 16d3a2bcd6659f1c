import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { walkMetres } from '../../engines/transit/journeys/walk-model.ts';
import { feedSpec, TransitApiStack } from '../support/transit-api-stack.ts';

/*
 * GET /route?mode=transit through the whole API (auth, release store, serializer) over a release
 * of the STQ ferries and TriMet's two routes; the routable feed is the first one (stq) unless
 * TRANSIT_ROUTING_FEED says otherwise.
 */

let stack: TransitApiStack;

beforeAll(async () => {
  stack = await TransitApiStack.create('transit_journeys_api');
  await stack.publishAndEnable([feedSpec('stq', 'ca-qc-stq-ferries.zip'), feedSpec('trimet', 'transitland-trimet-2routes.zip')]);
  await stack.start();
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

const FROM = '-71.204,46.8115';
const TO = '-71.186,46.811';
const QUE = [-71.2017, 46.811848] as const;
const LEV = [-71.18824, 46.810658] as const;
const transit = (query: string) => stack.get(`/route?mode=transit&${query}`);

describe('GET /route?mode=transit', () => {
  it('answers the Québec–Lévis crossing before the DST change with legs, geometry and distance', async () => {
    const res = await transit(`from=${FROM}&to=${TO}&depart_at=2026-03-08T01:00`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({
      schedule_type: 'scheduled',
      departure: '2026-03-08T06:16:53Z',
      arrival: '2026-03-08T06:35:02Z',
      transfers: 0,
      durationSeconds: 35 * 60 + 2,
    });
    expect(body.alternatives).toBeUndefined();
    expect(body.legs.map((l: { mode: string }) => l.mode)).toEqual(['walk', 'ride', 'walk']);
    expect(body.legs[0]).toMatchObject({ from: { lng: -71.204, lat: 46.8115 }, to: { id: 'svc:transit:stop:stq:QUE', name: 'Gare fluviale de Québec' }, arrival: '2026-03-08T06:20:00Z' });
    expect(body.legs[1]).toEqual({
      mode: 'ride',
      route: { id: 'svc:transit:route:stq:quebec', shortName: 'QL', longName: 'Québec – Lévis' },
      trip: { id: 'svc:transit:trip:stq:202603_quebec_QUE_LEV_252000_regular' },
      headsign: expect.any(String),
      from: { id: 'svc:transit:stop:stq:QUE', name: 'Gare fluviale de Québec', lng: QUE[0], lat: QUE[1] },
      to: { id: 'svc:transit:stop:stq:LEV', name: 'Gare fluviale de Lévis', lng: LEV[0], lat: LEV[1] },
      departure: '2026-03-08T06:20:00Z',
      arrival: '2026-03-08T06:32:00Z',
      intermediateStops: [],
    });
    expect(body.geometry).toEqual({ type: 'LineString', coordinates: [[-71.204, 46.8115], [...QUE], [...LEV], [-71.186, 46.811]] });
    const expected = walkMetres([-71.204, 46.8115], QUE) + haversineMetres(...QUE, ...LEV) + walkMetres(LEV, [-71.186, 46.811]);
    expect(Math.abs(body.distanceMeters - expected)).toBeLessThanOrEqual(1);
  });

  it('waits past the spring-forward gap: 03:00 local (EDT) and 07:00Z board the 06:30 EDT crossing', async () => {
    // 02:30 local does not exist that night: it is read as 03:30 EDT (07:30Z).
    for (const [departAt, instant] of [['2026-03-08T03:00', '2026-03-08T07:00:00Z'], ['2026-03-08T07:00:00Z', '2026-03-08T07:00:00Z'],
      ['2026-03-08T03:00:00-04:00', '2026-03-08T07:00:00Z'], ['2026-03-08T02:30', '2026-03-08T07:30:00Z']] as const) {
      const res = await transit(`from=${FROM}&to=${TO}&depart_at=${encodeURIComponent(departAt)}`);
      expect(res.status, departAt).toBe(200);
      expect(res.body.legs[1]).toMatchObject({ departure: '2026-03-08T10:30:00Z', arrival: '2026-03-08T10:42:00Z' });
      expect(res.body.arrival).toBe('2026-03-08T10:45:02Z');
      expect(res.body.durationSeconds, departAt).toBe((Date.parse('2026-03-08T10:45:02Z') - Date.parse(instant)) / 1000);
    }
  });

  it('reads a local depart_at and the same instant with its offset alike', async () => {
    const local = await transit(`from=${FROM}&to=${TO}&depart_at=2026-03-08T00:30`);
    const offset = await transit(`from=${FROM}&to=${TO}&depart_at=${encodeURIComponent('2026-03-08T00:30:00-05:00')}`);
    expect(local.status).toBe(200);
    expect(local.body).toEqual(offset.body);
    // 00:30 EST: the 00:30 crossing leaves before the walk to the terminal ends; next is 01:20 EST.
    expect(local.body.legs[1]).toMatchObject({ departure: '2026-03-08T06:20:00Z', headsign: 'Lévis' });
  });

  it('routes over TRANSIT_ROUTING_FEED: TriMet streetcar to MAX Green Line with one transfer', async () => {
    const config = stack.server!.app.config as { transitRoutingFeed: string | null };
    config.transitRoutingFeed = 'trimet';
    try {
      const res = await transit('from=-122.67189,45.49574&to=-122.56659,45.43555&depart_at=2021-11-16T09:00');
      expect(res.status).toBe(200);
      expect(res.body.transfers).toBe(1);
      const modes = res.body.legs.map((l: { mode: string }) => l.mode);
      expect(modes.filter((m: string) => m === 'ride')).toHaveLength(2);
      expect(res.body.legs.find((l: { mode: string }) => l.mode === 'ride').route.id).toBe('svc:transit:route:trimet:193');
      expect(res.body.legs.filter((l: { mode: string }) => l.mode === 'ride')[1].route.id).toBe('svc:transit:route:trimet:200');
      for (const alt of res.body.alternatives ?? []) {
        expect(alt.transfers).toBeLessThan(res.body.transfers);
        expect(Date.parse(alt.arrival)).toBeGreaterThan(Date.parse(res.body.arrival));
        expect(alt.geometry).toBeUndefined();
      }
      // A feed the enabled release lacks: routing is unavailable.
      config.transitRoutingFeed = 'nope';
      const missing = await transit(`from=${FROM}&to=${TO}&depart_at=2026-03-08T01:00`);
      expect(missing.status).toBe(503);
      expect(missing.body).toMatchObject({ error: 'routing temporarily unavailable', code: 'service_unavailable' });
    } finally {
      config.transitRoutingFeed = null;
    }
  });

  it('answers 422 no route when no stop is within walking distance', async () => {
    const res = await transit('from=-100,60&to=-100.5,60.5&depart_at=2026-03-08T01:00');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'no route', code: 'no_route' });
  });

  it.each([
    [`from=${FROM}&to=${TO}`, 'invalid_route_option', 'depart_at is required for mode=transit'],
    [`from=${FROM}&to=${TO}&depart_at=tomorrow`, 'invalid_route_option', /depart_at must be an ISO 8601 date-time/],
    [`from=${FROM}&to=${TO}&depart_at=2026-02-30T25:00`, 'invalid_route_option', /depart_at must be an ISO 8601 date-time/],
    [`from=${FROM}&to=${TO}&depart_at=2026-03-08T01:00&avoid=ferries`, 'invalid_route_option', 'avoid does not apply to mode=transit'],
    [`from=${FROM}&to=${TO}&depart_at=2026-03-08T01:00&use_highways=0.5`, 'invalid_route_option', /does not apply to mode=transit/],
    [`from=${FROM}&to=${TO}&depart_at=2026-03-08T01:00&arrive_by=2026-03-08T09:00`, 'invalid_route_option', 'arrive_by is not supported: give depart_at'],
    [`from=abc&to=${TO}&depart_at=2026-03-08T01:00`, 'invalid_location', 'from and to must be lng,lat'],
    [`from=${FROM}&to=200,100&depart_at=2026-03-08T01:00`, 'invalid_location', 'from and to must be lng,lat'],
    [`from=${FROM}&depart_at=2026-03-08T01:00`, 'invalid_location', 'from and to must be lng,lat'],
  ])('answers 400 for %s', async (query, code, error) => {
    const res = await transit(query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    if (typeof error === 'string') expect(res.body.error).toBe(error);
    else expect(res.body.error).toMatch(error);
  });
});

describe('GET /route?mode=transit without a transit release', () => {
  let empty: TransitApiStack;
  beforeAll(async () => {
    empty = await TransitApiStack.create('transit_journeys_none');
    await empty.start();
  }, 60_000);
  afterAll(async () => {
    await empty?.close();
  });

  it('answers 503 routing temporarily unavailable with Retry-After', async () => {
    const res = await empty.get(`/route?mode=transit&from=${FROM}&to=${TO}&depart_at=2026-03-08T01:00`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: 'routing temporarily unavailable', code: 'service_unavailable', retryable: true });
    expect(res.headers['retry-after']).toBe('5');
  });
});
