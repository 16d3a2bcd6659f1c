import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBasemap, type BasemapBuild, type BasemapBuildOptions } from '../../ingest/basemap/build.ts';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';
import { SAMPLE_FILE } from '../../samples/basemap/cut-extract.ts';
import { OsmPbfWriter, type OsmWriteNode, type OsmWriteRelation, type OsmWriteWay } from '../../samples/geocoding/pbf-writer.ts';
import { sharedData } from '../support/paths.ts';

const EXTRACT = sharedData('osm/pelias-vancouver_canada.osm.pbf');
const PROVINCES = sharedData('geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-streamed-basemap-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Built {
  build: BasemapBuild;
  sha256: string;
  messages: string[];
  /** What the build left in its work dir. */
  left: string[];
}

async function build(name: string, pbf: string, options: Omit<BasemapBuildOptions, 'onProgress'>): Promise<Built> {
  const archive = path.join(dir, `${name}.pmtiles`);
  const workDir = path.join(dir, `work-${name}`);
  const messages: string[] = [];
  const result = await buildBasemap({ pbf, provinces: PROVINCES }, archive, workDir, { ...options, onProgress: (_f, m) => messages.push(m) });
  const sha256 = createHash('sha256').update(await readFile(archive)).digest('hex');
  return { build: result, sha256, messages, left: await readdir(workDir) };
}

const summary = ({ build: b }: Built) => ({ features: b.features, skipped: b.skippedOsm, bounds: b.osmBounds, coast: b.coast, zooms: b.report.zooms, dropped: b.report.dropped });

describe('the streamed basemap build', () => {
  it('writes the same archive as the in-memory build on the Vancouver extract, byte for byte, and leaves no scratch files', async () => {
    const inMemory = await build('vancouver-in-memory', EXTRACT, { memoryMb: 2048, mode: 'in-memory' });
    const streamed = await build('vancouver-streamed', EXTRACT, { memoryMb: 256 });
    expect(streamed.sha256).toBe(inMemory.sha256);
    expect(summary(streamed)).toEqual(summary(inMemory));
    expect(streamed.build.skippedOsm).toBeGreaterThan(0); // the Pelias extract's clipped ways
    expect(streamed.build.report.archive.addressedTiles).toBeGreaterThan(50_000);
    expect(streamed.messages.some((m) => /nodes stored; assembling \d+ area relations/.test(m))).toBe(true);
    expect(inMemory.messages.some((m) => /nodes stored/.test(m))).toBe(false);
    expect(streamed.left).toEqual([]);
    expect(inMemory.left).toEqual([]);
  }, 120_000);

  it('reads a file that is not sorted by id in memory after all, says so, and gives the same tiles', async () => {
    const nodes: OsmWriteNode[] = [];
    const ways: OsmWriteWay[] = [];
    const relations: OsmWriteRelation[] = [];
    const { header } = await readOsm(SAMPLE_FILE, {
      node: (n) => nodes.push({ id: n.id, lng: n.lng, lat: n.lat, tags: n.tags }),
      way: (w) => ways.push({ id: w.id, refs: w.refs, tags: w.tags }),
      relation: (r) => relations.push({ id: r.id, members: r.members, tags: r.tags }),
    });
    // Two untagged nodes swapped: the points (tagged nodes) keep their order.
    const untagged = nodes.flatMap((n, i) => (Object.keys(n.tags ?? {}).length === 0 ? [i] : [])).slice(0, 2);
    [nodes[untagged[0]!], nodes[untagged[1]!]] = [nodes[untagged[1]!]!, nodes[untagged[0]!]!];
    const unsorted = path.join(dir, 'unsorted.osm.pbf');
    const writer = new OsmPbfWriter(unsorted, { sorted: false, ...(header.bbox ? { bbox: header.bbox } : {}) });
    for (const n of nodes) writer.node(n);
    for (const w of ways) writer.way(w);
    for (const r of relations) writer.relation(r);
    writer.close();

    const fromSorted = await build('sample-in-memory', SAMPLE_FILE, { memoryMb: 2048, mode: 'in-memory' });
    const fromUnsorted = await build('sample-unsorted', unsorted, { memoryMb: 2048 });
    expect(fromUnsorted.messages.some((m) => /comes after node \d+: the file is not sorted by type then id; reading it in memory instead/.test(m))).toBe(true);
    expect(fromUnsorted.sha256).toBe(fromSorted.sha256);
    expect(fromUnsorted.left).toEqual([]);
  }, 120_000);

  it('removes its node table and feature spool when the build fails after the OSM read', async () => {
    const workDir = path.join(dir, 'work-failing');
    const failing = buildBasemap({ pbf: SAMPLE_FILE, provinces: path.join(dir, 'no-such-provinces.geojson') }, path.join(dir, 'failing.pmtiles'), workDir, { memoryMb: 256 });
    await expect(failing).rejects.toThrow(/no-such-provinces/);
    expect(await readdir(workDir)).toEqual([]);
  }, 60_000);
});
