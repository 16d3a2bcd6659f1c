import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiStack } from '../support/api-stack.ts';
import { repoPath } from '../support/paths.ts';
import { tileContaining } from '../../engines/tiles/tile-feature.ts';


/**
 * A catalog built from real data: municipal boundaries, parks and aerodromes assembled from the
 * OSM relations of the Vancouver extract, provinces from Natural Earth, NTS cells computed.
 */
describe('catalog release from the Vancouver OSM extract', () => {
  let stack: ApiStack;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the manifest's stats are free-form
  let stats: any;

  beforeAll(async () => {
    const serving = await ApiStack.serving('catalog_osm', repoPath('test/catalog/vancouver.catalog.json'));
    stack = serving.stack;
    stats = serving.release.manifest.stats;
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('records every area it could not assemble in the manifest, by reason', () => {
    const municipalities = stats.layers.municipalities;
    expect(municipalities.features).toBe(3);
    const skipped = Object.entries(municipalities.skipped as Record<string, number>);
    expect(skipped.reduce((n, [, count]) => n + count, 0)).toBe(5);
    expect(skipped.map(([reason]) => reason).join('\n')).toMatch(/missing way/);
    expect(stats.layers.parks.features).toBeGreaterThan(250);
    expect(stats.layers.parks.tiling.zooms.length).toBeGreaterThan(0);
  });

  it('identifies the City of Vancouver at City Hall, in British Columbia', async () => {
    const { body } = await stack.get('/identify?at=-123.1139,49.2609');
    expect(body.results).toEqual([expect.objectContaining({ layer: 'municipalities', id: 'r1852574', name: 'Vancouver', name_fr: 'Vancouver', province: 'BC' })]);
    expect((await stack.get('/identify?at=-123.0,49.2276')).body.results).toEqual([]);
  });

  it('identifies an aerodrome polygon but not the water in one of its holes', async () => {
    const terminal = (await stack.get('/data/query?layer=remote.airports&bbox=-123.2,49.1,-123.0,49.35&geometry=true')).body.results
      .find((r: { id: string }) => r.id === 'r4308097');
    expect(terminal.geometry.type).toBe('Polygon');
    expect(terminal.geometry.coordinates.length).toBe(16);
    const hole = terminal.geometry.coordinates[1] as number[][];
    const inHole = [hole.reduce((s, p) => s + p[0]!, 0) / hole.length, hole.reduce((s, p) => s + p[1]!, 0) / hole.length];
    const answer = await stack.get(`/identify?at=${inHole[0]},${inHole[1]}&layers=remote.airports`);
    expect(answer.body.results.map((r: { id: string }) => r.id)).not.toContain('r4308097');
  });

  it('tiles parks with their holes and the fields of volume 3', async () => {
    const [x, y] = tileContaining(-123.2, 49.2175, 14);
    const response = await stack.getBytes(`/layers/parks/14/${x}/${y}`);
    expect(response.status).toBe(200);
    const layer = new VectorTile(new PbfReader(new Uint8Array(gunzipSync(response.body)))).layers.parks!;
    const iona = Array.from({ length: layer.length }, (_, i) => layer.feature(i)).find((f) => f.properties.name === 'Iona Beach Regional Park');
    expect(iona?.properties).toMatchObject({ biome: 'T', region: 'BC' });
    expect(iona!.loadGeometry().length).toBeGreaterThanOrEqual(2);
  });

  it('serves computed NTS cells for identify', async () => {
    const { body } = await stack.get('/identify?at=-123.1139,49.2609&layers=survey.nts');
    expect(body.results.map((r: { id: string }) => r.id)).toEqual(['092G06', expect.stringMatching(/^[A-L]\/092-G-06$/)]);
  });
});
