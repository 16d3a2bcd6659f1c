import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { HGT_VOID } from '../../engines/terrain/hgt.ts';
import { DEM_ZIP, loadDemFixture, postLngLat, rawPost, type DemFixture } from './dem-fixture.ts';
import { ApiStack } from '../support/api-stack.ts';
import { prepareTerrainRelease } from '../../ingest/terrain/release.ts';

let stack: ApiStack;
let fx: DemFixture;

beforeAll(async () => {
  fx = await loadDemFixture();
  stack = await ApiStack.create('terrain_elevation');
  const release = await stack.publish(() => prepareTerrainRelease([DEM_ZIP]));
  await stack.start();
  await stack.enable(release);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

/** Posts of N48W125 on land in its surveyed south half (row 0 is lat 49, col 0 lng −125), edges included. */
const POSTS: [number, number][] = [[3000, 2000], [3300, 3100], [2950, 2400], [3600, 3600], [3599, 3000], [2600, 2100]];

/** The four raw posts around (row + fr, col + fc) blended by hand, straight from the file's bytes. */
function bilinearFromRaw(row: number, col: number, fr: number, fc: number): number {
  const v = (r: number, c: number) => rawPost(fx.raw, r, c);
  return v(row, col) * (1 - fr) * (1 - fc) + v(row, col + 1) * (1 - fr) * fc + v(row + 1, col) * fr * (1 - fc) + v(row + 1, col + 1) * fr * fc;
}

describe('GET /elevation?at=lng,lat', () => {
  it('answers the raw sample exactly at a post', async () => {
    for (const [row, col] of POSTS) {
      const raw = rawPost(fx.raw, row, col);
      expect(raw).not.toBe(HGT_VOID);
      const [lng, lat] = postLngLat(row, col);
      const { status, body } = await stack.get(`/elevation?at=${lng},${lat}`);
      expect(status).toBe(200);
      expect(body).toEqual({ at: [lng, lat], elevation: raw, unit: 'm', datum: 'EGM96 geoid (SRTM)' });
    }
    expect(POSTS.map(([r, c]) => rawPost(fx.raw, r, c)).filter((v) => v > 50).length).toBeGreaterThan(3);
  });

  it('blends the four posts around a point bilinearly, to the centimetre', async () => {
    for (const [row, col] of POSTS.filter(([r, c]) => r < 3600 && c < 3600)) {
      for (const [fr, fc] of [[0.5, 0.5], [0.25, 0.8], [0.9, 0.1], [0, 0.37]] as const) {
        const lng = -125 + (col + fc) / 3600;
        const lat = 49 - (row + fr) / 3600;
        const expected = bilinearFromRaw(row, col, fr, fc);
        const { body } = await stack.get(`/elevation?at=${lng},${lat}`);
        expect(Math.abs(body.elevation - expected)).toBeLessThanOrEqual(0.005 + 1e-9);
      }
    }
    // between two posts of different heights, the answer is neither of them
    const [lng, lat] = [-125 + 2000.5 / 3600, 49 - 3000.5 / 3600];
    const corners = [rawPost(fx.raw, 3000, 2000), rawPost(fx.raw, 3000, 2001), rawPost(fx.raw, 3001, 2000), rawPost(fx.raw, 3001, 2001)];
    const { body } = await stack.get(`/elevation?lon=${lng}&lat=${lat}`);
    expect(body.elevation).toBeCloseTo(corners.reduce((a, b) => a + b) / 4, 2);
  });

  it('answers null, not an error, outside coverage and over the void north half', async () => {
    for (const at of ['-100,50', '-124.5,48.9', '0,0', '-124.5,89.9']) {
      const { status, body } = await stack.get(`/elevation?at=${at}`);
      expect([at, status, body.elevation]).toEqual([at, 200, null]);
    }
  });
});

describe('GET /elevation?path=...', () => {
  const path: [number, number][] = [postLngLat(3000, 2000), postLngLat(3300, 3100), postLngLat(2950, 2400)];
  const pathParam = path.map(([lng, lat]) => `${lng},${lat}`).join(';');

  it('answers the path\'s own points with cumulative great-circle distances and a summary', async () => {
    const { status, body } = await stack.get(`/elevation?path=${pathParam}`);
    expect(status).toBe(200);
    const legs = [haversineMetres(...path[0]!, ...path[1]!), haversineMetres(...path[1]!, ...path[2]!)];
    expect(body.points).toEqual([
      { at: path[0], distance: 0, elevation: rawPost(fx.raw, 3000, 2000) },
      { at: path[1], distance: Math.round(legs[0]! * 10) / 10, elevation: rawPost(fx.raw, 3300, 3100) },
      { at: path[2], distance: Math.round((legs[0]! + legs[1]!) * 10) / 10, elevation: rawPost(fx.raw, 2950, 2400) },
    ]);
    const heights = body.points.map((p: { elevation: number }) => p.elevation);
    expect(body).toMatchObject({ length: body.points[2].distance, min: Math.min(...heights), max: Math.max(...heights), unit: 'm' });
    const rises = heights.slice(1).map((h: number, i: number) => h - heights[i]);
    expect(body.ascent).toBeCloseTo(rises.filter((d: number) => d > 0).reduce((a: number, b: number) => a + b, 0), 2);
    expect(body.descent).toBeCloseTo(-rises.filter((d: number) => d < 0).reduce((a: number, b: number) => a + b, 0), 2);
  });

  it('samples N points evenly spaced along the path, ends included, each the DEM height there', async () => {
    const { body } = await stack.get(`/elevation?path=${pathParam}&samples=41`);
    expect(body.points).toHaveLength(41);
    expect(body.points[0].at).toEqual(path[0]);
    expect(body.points[40].at).toEqual(path[2]);
    body.points.forEach((p: { at: [number, number]; distance: number; elevation: number | null }, i: number) => {
      expect(Math.abs(p.distance - (body.length * i) / 40)).toBeLessThanOrEqual(0.1);
      const expected = fx.dem.elevationAt(p.at[0], p.at[1]);
      expect(expected).not.toBeNull();
      expect(Math.abs(p.elevation! - expected!)).toBeLessThanOrEqual(0.005 + 1e-9);
    });
    // consecutive samples on one leg are as far apart on the ground as their distances say; across
    // the turn at the middle point the straight line between them is shorter
    let straight = 0;
    for (let i = 1; i < 41; i++) {
      const [a, b] = [body.points[i - 1], body.points[i]];
      const chord = haversineMetres(a.at[0], a.at[1], b.at[0], b.at[1]);
      // samples sit on the straight lng/lat line of their leg, which is not quite the great circle
      const slack = 0.2 + (b.distance - a.distance) * 1e-3;
      expect(chord).toBeLessThanOrEqual(b.distance - a.distance + slack);
      if (Math.abs(chord - (b.distance - a.distance)) <= slack) straight++;
    }
    expect(straight).toBe(39);
  });

  it('gives null heights off the DEM and null extremes when no point has one', async () => {
    const { body } = await stack.get('/elevation?path=-100,50;-100.1,50.1&samples=3');
    expect(body.points.map((p: { elevation: unknown }) => p.elevation)).toEqual([null, null, null]);
    expect(body).toMatchObject({ min: null, max: null, ascent: 0, descent: 0 });
  });
});

describe('GET /elevation errors', () => {
  it('answers a JSON 400 naming the parameter at fault', async () => {
    const far = Array.from({ length: 101 }, (_, i) => `-124.${i % 10},48.1`).join(';');
    const cases: [string, string][] = [
      ['', 'at (lng,lat) or path (lng,lat;lng,lat;...) is required'],
      ['at=abc', 'at must be lng,lat: two decimal numbers separated by a comma, e.g. at=-124.25,48.1'],
      ['at=-200,48', 'longitude must be between -180 and 180 (at is lng,lat)'],
      ['at=-124,95', 'latitude must be between -90 and 90 (at is lng,lat)'],
      ['lon=-124', 'lat is required with lon (or give at=lng,lat)'],
      ['lon=x&lat=48', 'lon and lat must be decimal numbers'],
      ['at=-124,48&lon=-124&lat=48', 'give at or lon and lat, not both'],
      ['at=-124,48&path=-124,48;-124.1,48', 'give either a point (at, or lon and lat) or a path, not both'],
      ['samples=10', 'samples needs a path (path=lng,lat;lng,lat;...)'],
      ['path=-124,48', 'path needs at least 2 points lng,lat separated by semicolons (got 1); for one point use at=lng,lat'],
      [`path=${far}`, 'path has 101 points; at most 100'],
      ['path=-124,48;nope', 'path point 2 ("nope") is not lng,lat (two decimal numbers separated by a comma)'],
      ['path=-124,48;-124,91', 'path point 2 ("-124,91") has a latitude must be between -90 and 90'],
      ['path=-124,48;-124.1,48&samples=1', 'samples must be an integer between 2 and 500'],
      ['path=-124,48;-124.1,48&samples=501', 'samples must be an integer between 2 and 500'],
      ['path=-124,48;-124.1,48&samples=2.5', 'samples must be an integer between 2 and 500'],
      ['at=-124,48&at=-124,48.1', 'at must be given once, at most 100 characters'],
    ];
    for (const [query, error] of cases) {
      const { status, body } = await stack.get(`/elevation?${query}`);
      expect([query, status, body]).toEqual([query, 400, { error }]);
    }
  });

  it('documents the parameters and both answers in the OpenAPI description', async () => {
    const { body } = await stack.get('/openapi.json');
    const operation = body.paths['/elevation'].get;
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['at', 'lat', 'lon', 'path', 'samples']);
    const ok = operation.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(ok)).toMatch(/ascent/);
    expect(JSON.stringify(ok)).toMatch(/EGM96/);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '404', '503']);
    for (const route of ['/terrain/{version}/{z}/{x}/{y}', '/terrain/{z}/{x}/{y}', '/contours/{version}/{z}/{x}/{y}', '/contours/{z}/{x}/{y}']) {
      expect([route, Object.keys(body.paths[route]?.get?.responses ?? {}).sort()]).toEqual([route, ['200', '204', '400', '404', '503']]);
    }
    const result = await new Validator().validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
