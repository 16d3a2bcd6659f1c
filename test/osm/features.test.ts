import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOsmFeatures, type OsmFeatures } from '../../ingest/osm/features.ts';
import { OsmPbfWriter } from '../../samples/geocoding/pbf-writer.ts';

describe('readOsmFeatures: lines and points beside areas', () => {
  let dir: string;
  let result: OsmFeatures;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-osm-features-'));
    const file = path.join(dir, 'features.osm.pbf');
    const w = new OsmPbfWriter(file, { sorted: true });
    for (let i = 1; i <= 6; i++) w.node({ id: i, lng: i, lat: i === 3 ? 1 : 0 });
    w.node({ id: 7, lng: 0.5, lat: 0.5, tags: { place: 'city', name: 'Here' } });
    w.node({ id: 8, lng: 0.6, lat: 0.6, tags: { amenity: 'bench' } });
    w.way({ id: 20, refs: [1, 2, 3], tags: { highway: 'residential' } });
    // Nodes 98 and 99 are outside the extract: the road is cut into the runs that remain.
    w.way({ id: 21, refs: [1, 2, 98, 3, 4, 5, 99, 6], tags: { highway: 'primary' } });
    w.way({ id: 22, refs: [1, 99], tags: { highway: 'service' } });
    // A closed way that is an area is not also a line.
    w.way({ id: 23, refs: [1, 2, 3, 1], tags: { highway: 'pedestrian', area: 'yes' } });
    w.way({ id: 24, refs: [4, 5, 6, 4], tags: { highway: 'footway' } });
    w.close();
    result = await readOsmFeatures(file, {
      area: (t) => t.area === 'yes',
      line: (t) => t.highway !== undefined,
      point: (t) => t.place !== undefined,
    });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('builds lines, splitting a way at the nodes the file lacks', () => {
    expect(result.lines.map((l) => [l.osmId, l.geometry])).toEqual([
      ['w20', { type: 'LineString', coordinates: [[1, 0], [2, 0], [3, 1]] }],
      ['w21', { type: 'MultiLineString', coordinates: [[[1, 0], [2, 0]], [[3, 1], [4, 0], [5, 0]]] }],
      ['w24', { type: 'LineString', coordinates: [[4, 0], [5, 0], [6, 0], [4, 0]] }],
    ]);
    expect(result.skipped).toEqual([{ osmId: 'w22', tags: { highway: 'service' }, reason: 'fewer than 2 of its nodes are in the file' }]);
  });

  it('keeps a closed way that is an area out of the lines', () => {
    expect(result.areas.map((a) => a.osmId)).toEqual(['w23']);
  });

  it('selects tagged nodes as points and never untagged ones', () => {
    expect(result.points).toEqual([{ osmId: 'n7', tags: { place: 'city', name: 'Here' }, geometry: { type: 'Point', coordinates: [0.5, 0.5] } }]);
  });
});
