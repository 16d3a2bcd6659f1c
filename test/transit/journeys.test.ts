import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { seededRandom as random } from '../../lib/seeded-random.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DROP_OFF, NO_PICKUP, type TransitData } from '../../engines/transit/data.ts';
import type { Journey, RideLeg } from '../../engines/transit/journeys/journey.ts';
import { departureInstant } from '../../engines/transit/journeys/local-time.ts';
import { transitNetwork } from '../../engines/transit/journeys/network.ts';
import { planJourneys } from '../../engines/transit/journeys/plan.ts';
import { journeyGeometry, journeyMetres } from '../../engines/transit/journeys/response.ts';
import { MAX_WALK_METRES, TRANSFER_RADIUS_METRES, walkMetres, walkSeconds, WALK_SPEED_MPS } from '../../engines/transit/journeys/walk-model.ts';
import { transitWalking } from '../../engines/transit/journeys/walking.ts';
import { openTransitRelease } from '../../engines/transit/release.ts';
import { prepareTransitRelease } from '../../ingest/transit/release.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { feedSpec } from '../support/transit-api-stack.ts';
import { testManifest } from '../support/transit-builds.ts';
import { referenceEarliestArrival } from '../support/transit/journey-reference.ts';

/*
 * RAPTOR journeys over real feeds (STQ ferries, TriMet's streetcar + MAX Green Line, VIA Rail),
 * hand-checked against the timetables and compared with the brute-force time-expanded reference
 * (test/transit/journey-reference.ts) on many generated queries.
 */

let data: TransitData;
let workDir: string;
let stagingDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'journeys-work-'));
  stagingDir = await mkdtemp(path.join(os.tmpdir(), 'journeys-stage-'));
  const spec = await prepareTransitRelease([
    feedSpec('stq', 'ca-qc-stq-ferries.zip'),
    feedSpec('trimet', 'transitland-trimet-2routes.zip'),
    feedSpec('via', 'ca-via-rail-better-via-gtfs.zip'),
  ], { workDir, fetchTimeoutMs: 10_000, maxDownloadBytes: 100 * 1024 * 1024 });
  await spec.build(stagingDir);
  data = await openTransitRelease(stagingDir, testManifest('journeys-test'));
}, 180_000);

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
  await rm(stagingDir, { recursive: true, force: true });
});

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const at = (text: string) => Date.parse(text) / 1000;
const point = (id: string): [number, number] => {
  const s = data.stops[data.stopIndex.get(id)!]!;
  return [s.lon!, s.lat!];
};
const rides = (j: Journey) => j.legs.filter((l): l is RideLeg => l.mode === 'ride');
const zone = (feed: string) => data.feeds.find((f) => f.feedId === feed)!.timezone;

/** Points a little off the Québec and Lévis terminals (1.4 km apart: no direct walk). */
const NEAR_QUEBEC: [number, number] = [-71.204, 46.8115];
const NEAR_LEVIS: [number, number] = [-71.186, 46.811];

/** Every journey is consistent: legs chained in time, rides within their trips, Pareto order. */
function checkShape(journeys: Journey[], departAt: number) {
  for (const j of journeys) {
    expect(j.departure).toBeGreaterThanOrEqual(departAt);
    expect(j.legs[0]!.departure).toBe(j.departure);
    expect(j.legs[j.legs.length - 1]!.arrival).toBe(j.arrival);
    for (let i = 1; i < j.legs.length; i++) expect(j.legs[i]!.departure).toBeGreaterThanOrEqual(j.legs[i - 1]!.arrival);
    expect(j.transfers).toBe(Math.max(0, rides(j).length - 1));
    for (const ride of rides(j)) {
      expect(ride.arrival).toBeGreaterThanOrEqual(ride.departure);
      expect(ride.from.id).toMatch(/^svc:transit:stop:[a-z0-9_-]+:/);
    }
  }
  for (let i = 1; i < journeys.length; i++) {
    expect(journeys[i]!.arrival).toBeGreaterThan(journeys[i - 1]!.arrival);
    expect(journeys[i]!.transfers).toBeLessThan(journeys[i - 1]!.transfers);
  }
}

describe('walking model', () => {
  it('walks great-circle × 1.25 at 1.2 m/s, access within 1 km, footpaths within 300 m', () => {
    expect(WALK_SPEED_MPS).toBe(1.2);
    expect(walkSeconds(120)).toBe(100);
    expect(walkSeconds(0)).toBe(0);
    expect(walkMetres([-71.2, 46.8], [-71.19, 46.8])).toBeCloseTo(haversineMetres(-71.2, 46.8, -71.19, 46.8) * 1.25, 6);
    const access = transitWalking(data, 'stq')!.accessStops(NEAR_QUEBEC);
    expect(access.map((a) => data.stops[a.stop]!.id)).toEqual(['svc:transit:stop:stq:QUE']);
    expect(access[0]!.seconds).toBe(walkSeconds(walkMetres(NEAR_QUEBEC, point('svc:transit:stop:stq:QUE'))));
    // Only the routable feed's stops count.
    expect(transitWalking(data, 'trimet')!.accessStops(NEAR_QUEBEC)).toEqual([]);
    const from = data.stopIndex.get('svc:transit:stop:trimet:10764')!;
    const paths = transitWalking(data, 'trimet')!.footpaths(from);
    expect(paths.map((p) => data.stops[p.stop]!.id)).toContain('svc:transit:stop:trimet:7774');
    for (const p of paths) {
      expect(p.stop).not.toBe(from);
      expect(haversineMetres(...point(data.stops[from]!.id), ...point(data.stops[p.stop]!.id))).toBeLessThanOrEqual(TRANSFER_RADIUS_METRES);
    }
  });

  it('offers a direct walk when the ends are within 1 km', () => {
    const from: [number, number] = [-71.2017, 46.8118];
    const to: [number, number] = [-71.1980, 46.8150];
    expect(haversineMetres(...from, ...to)).toBeLessThan(MAX_WALK_METRES);
    const journeys = planJourneys(data, 'stq', { from, to, departAt: at('2026-03-08T12:00:00Z') });
    expect(journeys).toHaveLength(1);
    expect(journeys[0]!.legs).toMatchObject([{ mode: 'walk', departure: at('2026-03-08T12:00:00Z') }]);
    expect(journeys[0]!.arrival).toBe(at('2026-03-08T12:00:00Z') + walkSeconds(walkMetres(from, to)));
  });
});

describe('depart_at in the feed\'s local time', () => {
  it.each([
    ['2026-03-08T01:30', '2026-03-08T06:30:00Z'], // EST
    ['2026-03-08T02:30', '2026-03-08T07:30:00Z'], // skipped by the spring-forward gap: 03:30 EDT
    ['2026-03-08T03:00', '2026-03-08T07:00:00Z'], // EDT
    ['2026-11-01T01:30', '2026-11-01T05:30:00Z'], // repeated hour: its first (EDT) occurrence
    ['2026-11-01T02:30', '2026-11-01T07:30:00Z'], // EST
    ['2026-03-08T01:30:00-05:00', '2026-03-08T06:30:00Z'],
    ['2026-03-08T08:30:00+0100', '2026-03-08T07:30:00Z'],
    ['2026-03-08T08:30Z', '2026-03-08T08:30:00Z'],
  ])('%s in America/Montreal is %s', (text, instant) => {
    expect(iso(departureInstant(text, 'America/Montreal'))).toBe(instant);
  });
});

describe('STQ Québec–Lévis across the 2026-03-08 DST change', () => {
  const crossing = (departAt: number) => {
    const journeys = planJourneys(data, 'stq', { from: NEAR_QUEBEC, to: NEAR_LEVIS, departAt });
    checkShape(journeys, departAt);
    expect(journeys).toHaveLength(1);
    const [ride] = rides(journeys[0]!);
    return { journey: journeys[0]!, ride: ride! };
  };

  it('before the change: 01:00 EST boards the 01:20 EST crossing, a 25:20 trip of 7 March', () => {
    const departAt = departureInstant('2026-03-08T01:00', zone('stq'));
    expect(iso(departAt)).toBe('2026-03-08T06:00:00Z');
    const { journey, ride } = crossing(departAt);
    expect(ride).toMatchObject({
      route: { id: 'svc:transit:route:stq:quebec', shortName: 'QL', longName: 'Québec – Lévis' },
      trip: { id: 'svc:transit:trip:stq:202603_quebec_QUE_LEV_252000_regular' },
      from: { id: 'svc:transit:stop:stq:QUE' }, to: { id: 'svc:transit:stop:stq:LEV' },
    });
    expect([iso(ride.departure), iso(ride.arrival)]).toEqual(['2026-03-08T06:20:00Z', '2026-03-08T06:32:00Z']);
    expect(journey.legs.map((l) => l.mode)).toEqual(['walk', 'ride', 'walk']);
    expect(journey.legs[0]!.arrival).toBe(ride.departure);
    expect(journey.arrival).toBe(ride.arrival + walkSeconds(walkMetres(point('svc:transit:stop:stq:LEV'), NEAR_LEVIS)));
  });

  it('after the change: 03:00 EDT waits for the 06:30 EDT crossing', () => {
    const { ride } = crossing(departureInstant('2026-03-08T03:00', zone('stq')));
    expect(ride.trip.id).toBe('svc:transit:trip:stq:202603_quebec_QUE_LEV_063000_regular');
    expect([iso(ride.departure), iso(ride.arrival)]).toEqual(['2026-03-08T10:30:00Z', '2026-03-08T10:42:00Z']);
  });

  it('reads local and offset depart_at alike: 01:30 local = 01:30-05:00, and 06:00 local is EDT', () => {
    const local = crossing(departureInstant('2026-03-08T01:30', zone('stq')));
    const offset = crossing(departureInstant('2026-03-08T01:30:00-05:00', zone('stq')));
    expect(local.journey).toEqual(offset.journey);
    expect(iso(local.ride.departure)).toBe('2026-03-08T10:30:00Z');
    const morning = crossing(departureInstant('2026-03-08T06:00', zone('stq')));
    expect(iso(morning.ride.departure)).toBe('2026-03-08T10:30:00Z');
    const evening = crossing(departureInstant('2026-03-07T23:30', zone('stq')));
    expect(iso(evening.ride.departure)).toBe('2026-03-08T05:20:00Z');
  });
});

describe('TriMet: Portland Streetcar NS Line to MAX Green Line', () => {
  it('transfers once, walking 10764 → 7774, and agrees with the reference', () => {
    const from = point('svc:transit:stop:trimet:12881');
    const to = point('svc:transit:stop:trimet:13132');
    const departAt = departureInstant('2021-11-16T09:00', zone('trimet'));
    const journeys = planJourneys(data, 'trimet', { from, to, departAt });
    checkShape(journeys, departAt);
    const best = journeys[0]!;
    expect(best.transfers).toBe(1);
    expect(rides(best).map((r) => r.route.id)).toEqual(['svc:transit:route:trimet:193', 'svc:transit:route:trimet:200']);
    expect(rides(best)[0]).toMatchObject({ trip: { id: 'svc:transit:trip:trimet:11133401' }, from: { id: 'svc:transit:stop:trimet:12881' } });
    expect(iso(rides(best)[0]!.departure)).toBe('2021-11-16T17:11:00Z');
    const transfer = best.legs.find((l, i) => l.mode === 'walk' && i > 0 && i < best.legs.length - 1)!;
    expect(transfer).toMatchObject({ from: { id: 'svc:transit:stop:trimet:10764' }, to: { id: 'svc:transit:stop:trimet:7774' } });
    const ref = referenceEarliestArrival(data, 'trimet', { from, to, departAt, maxTransfers: 4 }, transitWalking(data, 'trimet')!)!;
    expect([best.arrival, best.transfers]).toEqual([ref.arrival, ref.transfers]);
    // Geometry and distance run through every stop of the rides.
    const stopsPassed = rides(best).reduce((n, r) => n + r.intermediateStops.length + 2, 0);
    expect(journeyGeometry(best).coordinates.length).toBeGreaterThanOrEqual(stopsPassed);
    expect(journeyMetres(best)).toBeGreaterThan(haversineMetres(...from, ...to));
  });
});

describe('VIA Rail multi-day trains', () => {
  it('Toronto → Vancouver on the Canadian arrives four days later (times past 96 h)', () => {
    const departAt = departureInstant('2024-11-06T08:00', zone('via'));
    const journeys = planJourneys(data, 'via', { from: point('svc:transit:stop:via:TRTO'), to: point('svc:transit:stop:via:VCVR'), departAt });
    checkShape(journeys, departAt);
    expect(journeys).toHaveLength(1);
    const [ride] = rides(journeys[0]!);
    expect(ride).toMatchObject({ route: { id: 'svc:transit:route:via:CAN' }, trip: { id: 'svc:transit:trip:via:1296' } });
    expect([iso(journeys[0]!.departure), iso(journeys[0]!.arrival)]).toEqual(['2024-11-06T14:55:00Z', '2024-11-10T16:00:00Z']);
    expect(ride!.intermediateStops.length).toBeGreaterThan(10);
  });

  it('boards at Winnipeg the train that left Toronto on the service date before', () => {
    const departAt = departureInstant('2024-11-07T12:00', zone('via'));
    const journeys = planJourneys(data, 'via', { from: point('svc:transit:stop:via:WNPG'), to: point('svc:transit:stop:via:VCVR'), departAt });
    const [ride] = rides(journeys[0]!);
    expect(ride!.trip.id).toBe('svc:transit:trip:via:1296');
    expect([iso(ride!.departure), iso(ride!.arrival)]).toEqual(['2024-11-08T03:30:00Z', '2024-11-10T16:00:00Z']);
  });

  it('Toronto → Winnipeg agrees with the reference', () => {
    const from = point('svc:transit:stop:via:TRTO');
    const to = point('svc:transit:stop:via:WNPG');
    const departAt = departureInstant('2024-11-06T08:00', zone('via'));
    const [best] = planJourneys(data, 'via', { from, to, departAt });
    const ref = referenceEarliestArrival(data, 'via', { from, to, departAt, maxTransfers: 4 }, transitWalking(data, 'via')!)!;
    expect(iso(best!.arrival)).toBe('2024-11-08T01:30:00Z');
    expect([best!.arrival, best!.transfers]).toEqual([ref.arrival, ref.transfers]);
  });
});

/**
 * A second, independent oracle: a connection scan over every trip instance's consecutive stop
 * pairs (departure order), with earliest boarding readiness per stop and number of rides. Same
 * walking rules as the router (one footpath after a ride; egress after a ride or that footpath).
 * Looks two days past departAt, as the shared reference does.
 */
function connectionScan(feed: string, from: [number, number], to: [number, number], departAt: number, maxRides = 5): { arrival: number; transfers: number } | null {
  const feedIndex = data.feeds.findIndex((f) => f.feedId === feed);
  const info = data.feeds[feedIndex]!;
  const walking = transitWalking(data, feed)!;
  const horizon = departAt + 2 * 86_400;
  let maxSecs = 0;
  const calls = new Map<number, { seq: number; stop: number; arr: number; dep: number; boarding: number }[]>();
  for (let s = 0; s < data.stops.length; s++) {
    if (data.stopFeed[s] !== feedIndex) continue;
    for (let r = data.stopTimes.stopStart[s]!; r < data.stopTimes.stopStart[s + 1]!; r++) {
      const trip = data.stopTimes.trip[r]!;
      const dep = data.stopTimes.departure[r]!;
      const arr = data.stopTimes.arrival[r]! >= 0 ? data.stopTimes.arrival[r]! : dep;
      maxSecs = Math.max(maxSecs, dep);
      if (!calls.has(trip)) calls.set(trip, []);
      calls.get(trip)!.push({ seq: data.stopTimes.sequence[r]!, stop: s, arr, dep, boarding: data.stopTimes.boarding[r]! });
    }
  }
  const conns: { dep: number; arr: number; from: number; to: number; ti: number; board: boolean; alight: boolean }[] = [];
  let instances = 0;
  for (let d = 0; d < info.baseEpochs.length; d++) {
    const base = info.baseEpochs[d]!;
    if (base + maxSecs < departAt || base > horizon) continue;
    for (const [trip, list] of calls) {
      if (!data.calendar.runs(data.trips.service[trip]!, info.serviceDates[d]!)) continue;
      list.sort((a, b) => a.seq - b.seq);
      const ti = instances++;
      for (let i = 1; i < list.length; i++) {
        const dep = base + list[i - 1]!.dep;
        if (dep >= departAt && dep <= horizon) {
          const board = (list[i - 1]!.boarding & NO_PICKUP) === 0;
          const alight = (list[i]!.boarding & NO_DROP_OFF) === 0;
          conns.push({ dep, arr: base + list[i]!.arr, from: list[i - 1]!.stop, to: list[i]!.stop, ti, board, alight });
        }
      }
    }
  }
  conns.sort((a, b) => a.dep - b.dep || a.arr - b.arr);
  const n = data.stops.length;
  const ready = Array.from({ length: maxRides + 1 }, () => new Float64Array(n).fill(Infinity));
  const riding = Array.from({ length: maxRides + 1 }, () => new Uint8Array(instances));
  const egress = new Map(walking.egressStops(to).map((e) => [e.stop, e.seconds]));
  let best: { arrival: number; rides: number } | null = null;
  const offer = (arrival: number, rides: number) => {
    if (!best || arrival < best.arrival || (arrival === best.arrival && rides < best.rides)) best = { arrival, rides };
  };
  const direct = walking.direct(from, to);
  if (direct !== null) offer(departAt + direct, 0);
  const setReady = (k: number, stop: number, t: number) => {
    for (let j = k; j <= maxRides; j++) if (t < ready[j]![stop]!) ready[j]![stop] = t;
  };
  for (const a of walking.accessStops(from)) setReady(0, a.stop, departAt + a.seconds);
  for (const c of conns) {
    for (let k = 1; k <= maxRides; k++) {
      if (!riding[k]![c.ti] && !(c.board && ready[k - 1]![c.from]! <= c.dep)) continue;
      riding[k]![c.ti] = 1;
      if (!c.alight) continue;
      const e = egress.get(c.to);
      if (e !== undefined) offer(c.arr + e, k);
      setReady(k, c.to, c.arr + walking.changeSeconds(c.to));
      for (const p of walking.footpaths(c.to)) {
        setReady(k, p.stop, c.arr + p.seconds);
        const pe = egress.get(p.stop);
        if (pe !== undefined) offer(c.arr + p.seconds + pe, k);
      }
    }
  }
  const found = best as { arrival: number; rides: number } | null;
  return found && found.arrival <= horizon ? { arrival: found.arrival, transfers: Math.max(0, found.rides - 1) } : null;
}

describe('agreement with the brute-force reference', () => {
  it.each([
    ['stq', '2026-02-02T00:00:00Z', 55, 40],
    ['trimet', '2021-10-18T00:00:00Z', 80, 60],
    ['via', '2024-11-01T00:00:00Z', 25, 30],
  ] as const)('%s: earliest arrival and its fewest transfers match on generated queries', (feed, start, days, count) => {
    const next = random(feed.length * 7919);
    const network = transitNetwork(data, feed)!;
    const stops = data.stops.filter((s) => s.feed_id === feed && s.lon !== null && s.lat !== null);
    const jitter = (p: [number, number]): [number, number] => [p[0] + (next() - 0.5) * 0.006, p[1] + (next() - 0.5) * 0.004];
    let compared = 0;
    for (let q = 0; q < count; q++) {
      let a = stops[Math.floor(next() * stops.length)]!;
      let b = stops[Math.floor(next() * stops.length)]!;
      if (q % 3 !== 0) {
        // Mostly two stops of one pattern, so that most queries have an answer.
        const pattern = network.patterns[Math.floor(next() * network.patterns.length)]!;
        const i = Math.floor(next() * (pattern.stops.length - 1));
        const j = i + 1 + Math.floor(next() * (pattern.stops.length - 1 - i));
        a = data.stops[network.stops[pattern.stops[i]!]!]!;
        b = data.stops[network.stops[pattern.stops[j]!]!]!;
      }
      const from = jitter([a.lon!, a.lat!]);
      const to = jitter([b.lon!, b.lat!]);
      const departAt = at(start) + Math.floor(next() * days * 86_400);
      const journeys = planJourneys(data, feed, { from, to, departAt });
      checkShape(journeys, departAt);
      const label = `${feed} ${JSON.stringify(from)} → ${JSON.stringify(to)} at ${iso(departAt)}`;
      const oracle = connectionScan(feed, from, to, departAt);
      // The shared time-expanded reference (test/transit/journey-reference.ts) agrees on arrival and transfers.
      const shared = referenceEarliestArrival(data, feed, { from, to, departAt, maxTransfers: 4 }, transitWalking(data, feed)!);
      if (shared) expect(journeys[0] ? [iso(journeys[0].arrival), journeys[0].transfers] : null, label).toEqual([iso(shared.arrival), shared.transfers]);
      if (!oracle) {
        // The oracles look two days ahead; the router may find a later arrival.
        for (const j of journeys) expect(j.arrival, label).toBeGreaterThan(departAt + 2 * 86_400);
        continue;
      }
      compared++;
      expect([iso(journeys[0]!.arrival), journeys[0]!.transfers], label).toEqual([iso(oracle.arrival), oracle.transfers]);
    }
    expect(compared).toBeGreaterThan(count / 3);
  }, 120_000);
});
