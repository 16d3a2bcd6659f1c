import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransitData } from '../../engines/transit/data.ts';
import type { Journey, RideLeg, WalkLeg } from '../../engines/transit/journeys/journey.ts';
import { buildFootpaths } from '../../engines/transit/journeys/footpaths.ts';
import { planJourneys } from '../../engines/transit/journeys/plan.ts';
import { TRANSFER_RADIUS_METRES, walkMetres, walkSeconds } from '../../engines/transit/journeys/walk-model.ts';
import { transitWalking } from '../../engines/transit/journeys/walking.ts';
import { openTransitRelease } from '../../engines/transit/release.ts';
import { prepareTransitRelease } from '../../ingest/transit/release.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { writeFeedDir, type FeedTexts } from '../support/gtfs-fixtures.ts';
import { feedSpec } from '../support/transit-api-stack.ts';
import { testManifest } from '../support/transit-builds.ts';
import { referenceEarliestArrival } from '../support/transit/journey-reference.ts';

/*
 * transfers.txt in the router: a footpath beyond the 300 m radius with a min_transfer_time, a
 * change time at a stop, a footpath within the radius that the feed forbids; and TriMet's real
 * type-0 rules. Every answer is also checked against the brute-force reference.
 */

const STOPS: Record<string, [number, number]> = {
  A: [-75.0, 45.0],
  B: [-75.0, 45.01],
  C: [-75.0, 45.02],
  /** 786 m east of C: beyond the radius, joined to C by transfers.txt (type 2, 1500 s). */
  D: [-74.99, 45.02],
  E: [-74.99, 45.03],
  /** 157 m from B: within the radius, but transfers.txt says B → F is not possible. */
  F: [-75.002, 45.01],
  G: [-75.05, 45.05],
  H: [-74.98, 45.01],
  // Far from the rest (25 km and more): one case each.
  /** R7 K1 → K2 → K3: T7 lets no one off at K2, T7b does. */
  K1: [-75.4, 45.0],
  K2: [-75.4, 45.012],
  K3: [-75.4, 45.024],
  /** R8 P → Q: TA at 24:50 of one day, TB at 01:00 of the next, arriving first. */
  P: [-75.5, 45.0],
  Q: [-75.5, 45.012],
  /** R9 S9 → Y9; X9 is 222 m on from Y9, within walking distance of both ends of the R9 query. */
  S9: [-75.3, 45.1],
  Y9: [-75.3, 45.106],
  X9: [-75.3, 45.108],
};
/** Station ST with platforms ST1 and ST2, 222 m apart (R10 calls at both). */
const STATION: [number, number] = [-75.6, 45.001];
const PLATFORMS: Record<string, [number, number]> = { ST1: [-75.6, 45.0], ST2: [-75.6, 45.002] };
/** The R9 query's destination: 990 m from X9, 1,212 m from Y9. */
const NEAR_X9: [number, number] = [-75.3, 45.1169];

/** Daily service, times in UTC. R1 A→B→C, R2 D→E, R3 F→G, R4 B→H, R5 H→A, R6 G→C→D, R7–R9 as above; B has a 300 s change time. */
function transfersFeed(): FeedTexts {
  /** [stop, time, stop_headsign?, pickup_type?, drop_off_type?] */
  const trip = (id: string, route: string, calls: [string, string, string?, number?, number?][]) =>
    calls.map(([stop, time, headsign, pickup, dropOff], i) => `${id},${time},${time},${stop},${i + 1},${headsign ?? ''},${pickup ?? ''},${dropOff ?? ''}`).join('\n');
  return {
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nA1,Transfers Test,https://example.org,Etc/UTC\n',
    'stops.txt': `stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n${[
      ...Object.entries(STOPS).map(([id, [lng, lat]]) => `${id},Stop ${id},${lat},${lng},0,`),
      `ST,Station,${STATION[1]},${STATION[0]},1,`,
      ...Object.entries(PLATFORMS).map(([id, [lng, lat]]) => `${id},Platform ${id},${lat},${lng},0,ST`),
    ].join('\n')}\n`,
    'routes.txt': 'route_id,agency_id,route_short_name,route_type\nR1,A1,1,3\nR2,A1,2,3\nR3,A1,3,3\nR4,A1,4,3\nR5,A1,5,3\nR6,A1,6,3\nR7,A1,7,3\nR8,A1,8,3\nR9,A1,9,3\nR10,A1,10,3\n',
    'trips.txt': 'route_id,service_id,trip_id,trip_headsign\nR1,DAILY,T1,C\nR2,DAILY,T2,E\nR2,DAILY,T2b,E\nR3,DAILY,T3,G\nR4,DAILY,T4,H\nR4,DAILY,T4b,H\nR5,DAILY,T5,A\nR5,DAILY,T5b,A\nR6,DAILY,T6,D\nR7,DAILY,T7,K3\nR7,DAILY,T7b,K3\nR8,DAILY,TA,Q\nR8,DAILY,TB,Q\nR9,DAILY,T9,Y9\nR9,DAILY,T9x,S9\nR10,DAILY,T10,ST2\n',
    'stop_times.txt': `trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type\n${[
      trip('T1', 'R1', [['A', '08:00:00', 'C via B'], ['B', '08:10:00'], ['C', '08:20:00']]),
      trip('T2', 'R2', [['D', '08:40:00'], ['E', '08:50:00']]),
      trip('T2b', 'R2', [['D', '09:40:00'], ['E', '09:50:00']]),
      trip('T3', 'R3', [['F', '08:15:00'], ['G', '08:25:00']]),
      trip('T4', 'R4', [['B', '08:12:00'], ['H', '08:30:00']]),
      trip('T4b', 'R4', [['B', '08:16:00'], ['H', '08:34:00']]),
      // T5 takes no one on at H; T6 lets no one off at C.
      trip('T5', 'R5', [['H', '09:00:00', undefined, 1], ['A', '09:20:00']]),
      trip('T5b', 'R5', [['H', '09:10:00'], ['A', '09:30:00']]),
      trip('T6', 'R6', [['G', '09:00:00'], ['C', '09:20:00', undefined, 0, 1], ['D', '09:25:00']]),
      trip('T7', 'R7', [['K1', '08:00:00'], ['K2', '08:10:00', undefined, 0, 1], ['K3', '08:20:00']]),
      trip('T7b', 'R7', [['K1', '08:05:00'], ['K2', '08:15:00'], ['K3', '08:25:00']]),
      trip('TA', 'R8', [['P', '24:50:00'], ['Q', '25:40:00']]),
      trip('TB', 'R8', [['P', '01:00:00'], ['Q', '01:30:00']]),
      trip('T9', 'R9', [['S9', '08:00:00'], ['Y9', '08:02:00']]),
      // Only served stops count: an early trip calls at X9.
      trip('T9x', 'R9', [['X9', '05:00:00'], ['S9', '05:05:00']]),
      trip('T10', 'R10', [['ST1', '06:00:00'], ['ST2', '06:05:00']]),
    ].join('\n')}\n`,
    'calendar.txt': 'service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAILY,1,1,1,1,1,1,1,20260301,20260331\n',
    // A station-wide 600 s rule; ST2's own 60 s rule wins for changes at ST2.
    'transfers.txt': 'from_stop_id,to_stop_id,transfer_type,min_transfer_time\nC,D,2,1500\nB,B,2,300\nB,F,3,\nST,ST,2,600\nST2,ST2,2,60\n',
  };
}

let root: string;
let data: TransitData;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'journeys-transfers-'));
  const feedDir = await writeFeedDir(path.join(root, 'feed'), transfersFeed());
  const spec = await prepareTransitRelease([
    { id: 'xfer', source: feedDir, licence: 'test', attribution: 'test' },
    feedSpec('trimet', 'transitland-trimet-2routes.zip'),
  ], { workDir: path.join(root, 'work'), fetchTimeoutMs: 10_000, maxDownloadBytes: 100 * 1024 * 1024 });
  const staging = await mkdtemp(path.join(root, 'staging-'));
  await spec.build(staging);
  data = await openTransitRelease(staging, testManifest('journeys-transfers'));
}, 180_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const stop = (feed: string, id: string) => data.stopIndex.get(`svc:transit:stop:${feed}:${id}`)!;
const at = (text: string) => Date.parse(text) / 1000;
const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const rides = (j: Journey) => j.legs.filter((l): l is RideLeg => l.mode === 'ride');
const tripOf = (leg: RideLeg) => leg.trip.id.split(':').pop();
const rawId = (index: number) => data.stops[index]!.id.split(':').pop();

/** The router's first journey, checked against the reference on arrival and transfers. */
function route(from: string, to: string, departAt: number): Journey | null {
  const request = { from: STOPS[from]!, to: STOPS[to]!, departAt, maxTransfers: 4 };
  const [first] = planJourneys(data, 'xfer', request);
  const reference = referenceEarliestArrival(data, 'xfer', request, transitWalking(data, 'xfer')!);
  expect(first ? [iso(first.arrival), first.transfers] : null).toEqual(reference ? [iso(reference.arrival), reference.transfers] : null);
  return first ?? null;
}

describe('footpaths from transfers.txt', () => {
  it('adds C → D beyond the radius at its min_transfer_time, and removes B → F within it', () => {
    const metresCD = haversineMetres(...STOPS.C!, ...STOPS.D!);
    expect(metresCD).toBeGreaterThan(TRANSFER_RADIUS_METRES);
    const fromC = transitWalking(data, 'xfer')!.footpaths(stop('xfer', 'C'));
    expect(fromC.map((p) => [rawId(p.stop), p.seconds])).toEqual([['D', 1500]]);
    expect(fromC[0]!.metres).toBeCloseTo(walkMetres(STOPS.C!, STOPS.D!), 6);
    // Rules are one-way: D → C is neither in transfers.txt nor within the radius.
    expect(transitWalking(data, 'xfer')!.footpaths(stop('xfer', 'D'))).toEqual([]);

    expect(haversineMetres(...STOPS.B!, ...STOPS.F!)).toBeLessThan(TRANSFER_RADIUS_METRES);
    expect(transitWalking(data, 'xfer')!.footpaths(stop('xfer', 'B'))).toEqual([]);
    expect(transitWalking(data, 'xfer')!.footpaths(stop('xfer', 'F')).map((p) => [rawId(p.stop), p.seconds]))
      .toEqual([['B', walkSeconds(walkMetres(STOPS.F!, STOPS.B!))]]);
    expect(transitWalking(data, 'xfer')!.changeSeconds(stop('xfer', 'B'))).toBe(300);
    expect(transitWalking(data, 'xfer')!.changeSeconds(stop('xfer', 'C'))).toBe(0);
  });

  it('walks C → D in 1500 s: T1 to C at 08:20, D at 08:45 misses T2 (08:40) and takes T2b to E at 09:50', () => {
    const journey = route('A', 'E', at('2026-03-10T07:55:00Z'))!;
    expect(iso(journey.arrival)).toBe('2026-03-10T09:50:00Z');
    expect(rides(journey).map(tripOf)).toEqual(['T1', 'T2b']);
    // The stop_headsign where T1 is boarded, else the trip's headsign.
    expect(rides(journey).map((r) => r.headsign)).toEqual(['C via B', 'E']);
    const walk = journey.legs.find((l): l is WalkLeg => l.mode === 'walk' && l.from.id?.endsWith(':C') === true)!;
    expect(walk.to.id).toBe('svc:transit:stop:xfer:D');
    expect([iso(walk.departure), iso(walk.arrival)]).toEqual(['2026-03-10T08:20:00Z', '2026-03-10T08:45:00Z']);
  });

  it('waits the 300 s change time at B: arriving 08:10 misses T4 (08:12) and takes T4b to H at 08:34', () => {
    const journey = route('A', 'H', at('2026-03-10T07:55:00Z'))!;
    expect(rides(journey).map(tripOf)).toEqual(['T1', 'T4b']);
    expect(iso(journey.arrival)).toBe('2026-03-10T08:34:00Z');
    // Boarding at B itself needs no change: T4 at 08:12.
    expect(rides(route('B', 'H', at('2026-03-10T08:05:00Z'))!).map(tripOf)).toEqual(['T4']);
    // T1 boarded at B has no stop_headsign there: the trip's.
    expect(rides(route('B', 'C', at('2026-03-10T08:05:00Z'))!).map((r) => r.headsign)).toEqual(['C']);
  });

  it('does not walk B → F: G is out of reach from A, though F is reachable on foot from B', () => {
    expect(route('A', 'G', at('2026-03-10T07:55:00Z'))).toBeNull();
    expect(rides(route('B', 'G', at('2026-03-10T08:05:00Z'))!).map(tripOf)).toEqual(['T3']);
  });

  it('boards only where a trip takes passengers on, and alights only where it lets them off', () => {
    // T5 (09:00) takes no one on at H: T5b at 09:10.
    const fromH = route('H', 'A', at('2026-03-10T08:55:00Z'))!;
    expect(rides(fromH).map(tripOf)).toEqual(['T5b']);
    expect(iso(fromH.arrival)).toBe('2026-03-10T09:30:00Z');
    // T6 passes C without letting anyone off: ride on to D (09:25) and walk the 786 m back.
    const toC = route('G', 'C', at('2026-03-10T08:55:00Z'))!;
    expect(rides(toC).map((r) => [tripOf(r), r.to.id.split(':').pop()])).toEqual([['T6', 'D']]);
    expect(iso(toC.arrival)).toBe(iso(at('2026-03-10T09:25:00Z') + walkSeconds(walkMetres(STOPS.D!, STOPS.C!))));
  });

  it('follows a later trip of the route where the earlier one lets no one off', () => {
    const journey = route('K1', 'K2', at('2026-03-10T07:55:00Z'))!;
    expect(rides(journey).map(tripOf)).toEqual(['T7b']);
    expect(iso(journey.arrival)).toBe('2026-03-10T08:15:00Z');
  });

  it("takes the next day's 01:00 trip that arrives before the previous day's 24:50 trip", () => {
    const journey = route('P', 'Q', at('2026-03-10T00:45:00Z'))!;
    expect(rides(journey).map(tripOf)).toEqual(['TB']);
    expect(iso(journey.arrival)).toBe('2026-03-10T01:30:00Z');
  });

  it('walks from the last ride to a stop it could also have walked to from the start, and egresses there', () => {
    // X9 is within 1 km of the start (an access label at 08:00:28), but only a journey with a
    // ride may end with an egress walk: T9 to Y9 (08:02), walk to X9, walk on to the destination.
    const request = { from: STOPS.S9!, to: NEAR_X9, departAt: at('2026-03-10T07:45:00Z'), maxTransfers: 4 };
    const [journey] = planJourneys(data, 'xfer', request);
    const reference = referenceEarliestArrival(data, 'xfer', request, transitWalking(data, 'xfer')!)!;
    const expected = at('2026-03-10T08:02:00Z') + walkSeconds(walkMetres(STOPS.Y9!, STOPS.X9!)) + walkSeconds(walkMetres(STOPS.X9!, NEAR_X9));
    expect([iso(journey!.arrival), journey!.transfers]).toEqual([iso(expected), 0]);
    expect(reference.arrival).toBe(expected);
    expect(journey!.legs.map((l) => (l.mode === 'ride' ? tripOf(l) : `walk to ${l.to.id?.split(':').pop() ?? 'destination'}`))).toEqual(['T9', 'walk to X9', 'walk to destination']);
  });

  it('applies a rule naming a station to each of its platforms, and a platform\'s own rule over it', () => {
    const walking = transitWalking(data, 'xfer')!;
    expect(walking.footpaths(stop('xfer', 'ST1')).map((p) => [rawId(p.stop), p.seconds])).toEqual([['ST2', 600]]);
    expect(walking.footpaths(stop('xfer', 'ST2')).map((p) => [rawId(p.stop), p.seconds])).toEqual([['ST1', 600]]);
    expect(walking.changeSeconds(stop('xfer', 'ST1'))).toBe(600);
    expect(walking.changeSeconds(stop('xfer', 'ST2'))).toBe(60);
  });

  it('keeps a rule whose walk cannot be measured as a straight walk, and measures the radius rule against its own radius', () => {
    const network = transitWalking(data, 'trimet')!.network;
    const calls: { to: number[]; radius: number }[] = [];
    const unmeasured = buildFootpaths(data, network.stops, network.networkStop, (from, to, radius) => {
      calls.push({ to: [...to], radius });
      return to.map(() => null);
    });
    const from = stop('trimet', '7608');
    const to = stop('trimet', '13123');
    const paths = unmeasured.from(network.networkStop[from]!);
    const metres = walkMetres([data.stops[from]!.lon!, data.stops[from]!.lat!], [data.stops[to]!.lon!, data.stops[to]!.lat!]);
    // Only the feed's rules remain when nothing can be walked; each at its straight-line time.
    expect([...paths.to].map((t) => network.stops[t])).toContain(to);
    expect(paths.seconds[[...paths.to].findIndex((t) => network.stops[t] === to)]).toBe(walkSeconds(metres));
    // Stops near 7608 that no rule names are measured within the 300 m radius, whatever its rules reach.
    const named = new Set<number>();
    for (let row = 0; row < data.transfers.from.length; row++) if (data.transfers.from[row] === from) named.add(data.transfers.to[row]!);
    for (const call of calls) if (call.to.some((t) => !named.has(t))) expect(call.radius).toBe(TRANSFER_RADIUS_METRES);
    expect(calls.some((call) => call.to.some((t) => !named.has(t)))).toBe(true);
  });

  it("loads TriMet's type-0 rules: 7608 → 13123 is a footpath at walking time", () => {
    const from = stop('trimet', '7608');
    const to = stop('trimet', '13123');
    const metres = walkMetres([data.stops[from]!.lon!, data.stops[from]!.lat!], [data.stops[to]!.lon!, data.stops[to]!.lat!]);
    const path = transitWalking(data, 'trimet')!.footpaths(from).find((p) => p.stop === to)!;
    expect(path.seconds).toBe(walkSeconds(metres));
    expect(path.metres).toBeCloseTo(metres, 6);
    expect(transitWalking(data, 'trimet')!.changeSeconds(from)).toBe(0);
  });
});
