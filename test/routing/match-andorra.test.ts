/**
 * POST /match on GraphHopper's map-matching fixtures (graphhopper/graphhopper map-matching/files,
 * Apache-2.0; OSM data © OpenStreetMap contributors, ODbL): a roads release of Andorra built as the
 * roads job builds one, the Andorra trace matched through the whole API. test1 and tour-with-loop
 * are traces of Leipzig, outside the graph: they answer 422 no_route, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceMetres } from '../../engines/routing/match/trace.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { ApiStack } from '../support/api-stack.ts';
import { sharedData } from '../support/paths.ts';
import { readGpx, type GpxPoint } from '../support/routing/match-traces.ts';

let stack: ApiStack;
let andorra: GpxPoint[];

beforeAll(async () => {
  stack = await ApiStack.create('routing_match_andorra');
  const release = await stack.publish(() => prepareRoadsRelease(sharedData('osm/graphhopper-andorra.osm.pbf')));
  await stack.start();
  await stack.enable(release);
  await stack.waitForRelease(release.id, ROADS_KIND);
  andorra = await readGpx(sharedData('osm/graphhopper-andorra_for_map_matching.gpx'));
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('POST /match on the GraphHopper traces', () => {
  it('matches the Andorra trace whole: every point on one line about as long as the trace', async () => {
    expect(andorra.length).toBe(21);
    const hops = traceMetres(andorra);
    for (const mode of ['auto', 'bicycle', 'pedestrian']) {
      const answer = await stack.post('/match', { points: andorra.map((p) => [p.lng, p.lat]), mode });
      expect(answer.status, mode).toBe(200);
      const body = answer.body;
      expect(body.geometry.type, mode).toBe('LineString');
      expect(body.breaks, mode).toEqual([]);
      expect(body.points.every((p: { matched: boolean }) => p.matched), mode).toBe(true);
      expect(body.points.every((p: { distanceMeters: number }) => p.distanceMeters < 25), mode).toBe(true);
      // The road is a little longer than the straight hops between fixes, never much longer.
      expect(body.distanceMeters, mode).toBeGreaterThan(0.97 * hops);
      expect(body.distanceMeters, mode).toBeLessThan(1.3 * hops);
      console.log(`andorra ${mode}: ${andorra.length} fixes, hops ${Math.round(hops)} m, matched ${body.distanceMeters} m, ${body.durationSeconds} s`);
    }
  });

  it('matches the Andorra trace thinned to every third fix, and with a tight search radius', async () => {
    const thinned = andorra.filter((_, i) => i % 3 === 0);
    const answer = await stack.post('/match', { points: thinned.map((p) => [p.lng, p.lat]) });
    expect(answer.status).toBe(200);
    expect(answer.body.breaks).toEqual([]);
    const tight = await stack.post('/match', { points: andorra.map((p) => [p.lng, p.lat]), search_radius: 5 });
    expect([200, 422]).toContain(tight.status);
  });

  it.each(['graphhopper-test1.gpx', 'graphhopper-tour-with-loop.gpx'])('answers 422 no_route for %s (Leipzig, outside the graph)', async (file) => {
    const points = (await readGpx(sharedData(`osm/${file}`))).map((p) => [p.lng, p.lat]);
    expect(points.length).toBeGreaterThan(2);
    expect(await stack.post('/match', { points: points.slice(0, 2000) })).toMatchObject({ status: 422, body: { error: 'no route', code: 'no_route' } });
  });
});
