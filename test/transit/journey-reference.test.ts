// The brute-force journey reference (journey-reference.ts) on a hand-made feed whose answers are
// worked out by hand below: transfers, the fewest-transfers tie-break, maxTransfers, footpaths,
// change times at a stop, the service calendar, trips of the previous service day running past midnight, direct walking.
import { describe, expect, it } from 'vitest';
import type { TransitData } from '../../engines/transit/data.ts';
import { ServiceCalendar } from '../../engines/transit/service-calendar.ts';
import { referenceEarliestArrival, type LngLat, type ReferenceWalking, type StopWalk } from '../support/transit/journey-reference.ts';

const DAY = 86_400;
/** 2026-03-02 (days since 1970-01-01); the feed's timezone is UTC so base epoch = day × 86,400. */
const D = 20_514;
const STOPS = ['A', 'B', 'C', 'D', 'H', 'X'] as const;
type StopName = (typeof STOPS)[number];
const hm = (h: number, m: number) => h * 3600 + m * 60;

/** service 0: days D and D + 1; service 1: D + 1 only; service 2: D only. */
const TRIPS: { id: string; service: number; times: [StopName, number][] }[] = [
  { id: 'T1', service: 0, times: [['A', hm(8, 0)], ['B', hm(8, 10)], ['C', hm(8, 20)]] },
  { id: 'T2', service: 0, times: [['C', hm(8, 25)], ['D', hm(8, 40)]] },
  { id: 'T3', service: 0, times: [['A', hm(8, 5)], ['D', hm(8, 45)]] },
  { id: 'T5', service: 1, times: [['A', hm(8, 2)], ['D', hm(8, 40)]] },
  { id: 'T7', service: 0, times: [['C', hm(8, 21)], ['H', hm(8, 50)]] },
  { id: 'T8', service: 2, times: [['A', hm(24, 30)], ['D', hm(25, 0)]] },
];

function fixture(): TransitData {
  const rows = TRIPS.flatMap((trip, t) => trip.times.map(([stop, secs], i) => ({ stop: STOPS.indexOf(stop), trip: t, secs, sequence: i + 1 })));
  rows.sort((a, b) => a.stop - b.stop || a.secs - b.secs);
  const stopStart = new Int32Array(STOPS.length + 1);
  for (const r of rows) stopStart[r.stop + 1]!++;
  for (let s = 0; s < STOPS.length; s++) stopStart[s + 1]! += stopStart[s]!;
  const calendar = ServiceCalendar.allocate([[D, D + 1], [D + 1, D + 1], [D, D]]);
  calendar.set(0, D);
  calendar.set(0, D + 1);
  calendar.set(1, D + 1);
  calendar.set(2, D);
  const data = {
    releaseId: 'fixture',
    feeds: [{ feedId: 'f', timezone: 'UTC', maxSecs: hm(25, 0), serviceDates: Int32Array.from([D, D + 1]), baseEpochs: Float64Array.from([D * DAY, (D + 1) * DAY]) }],
    stops: STOPS.map((id) => ({ id })),
    stopFeed: new Int32Array(STOPS.length),
    trips: { ids: TRIPS.map((t) => t.id), route: new Int32Array(TRIPS.length), service: Int32Array.from(TRIPS.map((t) => t.service)), headsign: TRIPS.map(() => null) },
    stopTimes: {
      stopStart,
      trip: Int32Array.from(rows.map((r) => r.trip)),
      departure: Int32Array.from(rows.map((r) => r.secs)),
      arrival: Int32Array.from(rows.map((r) => r.secs)),
      sequence: Int32Array.from(rows.map((r) => r.sequence)),
      headsign: new Int32Array(rows.length).fill(-1),
      headsigns: [],
      boarding: new Uint8Array(rows.length),
    },
    calendar,
  };
  return data as unknown as TransitData;
}

/** Points are [stop index, 0]: access/egress at that stop only, 0 s; footpath D ↔ H, 60 s; `change` seconds to change trips at C. */
function walking(direct: number | null = null, change = 0): ReferenceWalking {
  const at = (point: LngLat): StopWalk[] => [{ stop: point[0], seconds: 0 }];
  const paths: Record<number, StopWalk[]> = { 3: [{ stop: 4, seconds: 60 }], 4: [{ stop: 3, seconds: 60 }] };
  return {
    accessStops: at, egressStops: at, footpaths: (stop) => paths[stop] ?? [], direct: () => direct,
    changeSeconds: (stop) => (stop === STOPS.indexOf('C') ? change : 0),
  };
}

const point = (stop: StopName): LngLat => [STOPS.indexOf(stop), 0];
const data = fixture();
const ask = (from: StopName, to: StopName, departAt: number, options: { maxTransfers?: number; direct?: number | null; changeAtC?: number } = {}) =>
  referenceEarliestArrival(data, 'f', { from: point(from), to: point(to), departAt, maxTransfers: options.maxTransfers }, walking(options.direct ?? null, options.changeAtC));

describe('referenceEarliestArrival on a hand-made feed', () => {
  const day0 = D * DAY;
  const day1 = (D + 1) * DAY;

  it('takes T1 then T2 (one transfer at C, 08:40) over the direct T3 (08:45)', () => {
    expect(ask('A', 'D', day0 + hm(7, 55))).toEqual({ arrival: day0 + hm(8, 40), transfers: 1, rides: 2 });
  });

  it('with maxTransfers 0 takes T3', () => {
    expect(ask('A', 'D', day0 + hm(7, 55), { maxTransfers: 0 })).toEqual({ arrival: day0 + hm(8, 45), transfers: 0, rides: 1 });
  });

  it('prefers the direct T5 (08:40, no transfer) on the day it runs', () => {
    expect(ask('A', 'D', day1 + hm(7, 55))).toEqual({ arrival: day1 + hm(8, 40), transfers: 0, rides: 1 });
  });

  it('boards at departure ≥ arrival (+0 s): leaving A at 08:00 exactly still catches T1', () => {
    expect(ask('A', 'D', day0 + hm(8, 0))).toEqual({ arrival: day0 + hm(8, 40), transfers: 1, rides: 2 });
    expect(ask('A', 'D', day0 + hm(8, 0) + 1)).toEqual({ arrival: day0 + hm(8, 45), transfers: 0, rides: 1 });
  });

  it('waits the change time at C: 5 min still catches T2 (08:20 → 08:25), 6 min or a forbidden change does not', () => {
    expect(ask('A', 'D', day0 + hm(7, 55), { changeAtC: 300 })).toEqual({ arrival: day0 + hm(8, 40), transfers: 1, rides: 2 });
    expect(ask('A', 'D', day0 + hm(7, 55), { changeAtC: 301 })).toEqual({ arrival: day0 + hm(8, 45), transfers: 0, rides: 1 });
    expect(ask('A', 'D', day0 + hm(7, 55), { changeAtC: Infinity })).toEqual({ arrival: day0 + hm(8, 45), transfers: 0, rides: 1 });
    // Alighting at C is still a way to reach C.
    expect(ask('A', 'C', day0 + hm(7, 55), { changeAtC: Infinity })).toEqual({ arrival: day0 + hm(8, 20), transfers: 0, rides: 1 });
  });

  it('walks one footpath after alighting: T1, T2, D → H on foot at 08:41 beats T7 (08:50)', () => {
    expect(ask('A', 'H', day0 + hm(7, 55))).toEqual({ arrival: day0 + hm(8, 41), transfers: 1, rides: 2 });
  });

  it('rides the previous service day past midnight (T8 at 24:30 of day D)', () => {
    expect(ask('A', 'D', day1 + hm(0, 20))).toEqual({ arrival: day0 + hm(25, 0), transfers: 0, rides: 1 });
  });

  it('walks when walking is faster, and answers null when nothing runs', () => {
    expect(ask('A', 'D', day0 + hm(7, 55), { direct: 600 })).toEqual({ arrival: day0 + hm(8, 5), transfers: 0, rides: 0 });
    expect(ask('A', 'D', day1 + hm(9, 0))).toBeNull();
    expect(ask('D', 'A', day0 + hm(7, 0))).toBeNull();
  });
});
