// The benchmark's synthetic corpus generator (bench/geocoding/generate.ts) on a small run: the CSV
// is OpenAddresses-shaped with valid, province-consistent postal codes, numbers increase along
// each street, ~5% of rows are units, the POI file reads back through the project's own PBF
// reader with every node mapped by categoryForOsmTags, and the same seed gives the same bytes.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESSES_FILE, generateCorpus, OSM_FILE } from '../support/geocoding/generate.ts';
import { SAMPLES_FILE, type CorpusSamples } from '../support/geocoding/samples.ts';
import type { OsmNode } from '../../ingest/osm/pbf-primitive-block.ts';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';
import { parsePostcode } from '../../engines/geocoding/text/postcode.ts';
import { categoryForOsmTags } from '../../engines/geocoding/taxonomy.ts';

const FIRST_LETTERS: Record<string, string> = {
  NL: 'A', NS: 'B', PE: 'C', NB: 'E', QC: 'GHJ', ON: 'KLMNP', MB: 'R', SK: 'S', AB: 'T', BC: 'V', NT: 'X', NU: 'X', YT: 'Y',
};

let dir: string;
let rows: string[][];
let nodes: OsmNode[];
let samples: CorpusSamples;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-corpus-'));
  await generateCorpus({ dir, scale: 1, addresses: 40_000, pois: 3_000, seed: 5 });
  const lines = (await readFile(path.join(dir, ADDRESSES_FILE), 'utf8')).trimEnd().split('\n');
  expect(lines[0]).toBe('LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID');
  rows = lines.slice(1).map((l) => l.split(','));
  nodes = [];
  await readOsm(path.join(dir, OSM_FILE), { node: (n) => nodes.push(n) });
  samples = JSON.parse(await readFile(path.join(dir, SAMPLES_FILE), 'utf8')) as CorpusSamples;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bench/geocoding corpus generator', () => {
  it('writes at least the asked-for address rows, every one complete and inside Canada', () => {
    expect(rows.length).toBeGreaterThanOrEqual(40_000);
    expect(samples.summary.addresses).toBe(rows.length);
    const bad = rows.filter((r) => {
      const [lon, lat] = [Number(r[0]), Number(r[1])];
      const inCanada = lon > -141.1 && lon < -52.6 && lat > 41.6 && lat < 83.2;
      return r.length !== 10 || !inCanada || !/^\d+$/.test(r[2]!) || r[3]!.length <= 3 || !r[5];
    });
    expect(bad.slice(0, 3)).toEqual([]);
    expect(new Set(rows.map((r) => r[9])).size).toBe(rows.length);
  });

  it('gives valid postal codes whose first letter belongs to the row\'s province, shared by neighbours', () => {
    const withCode = rows.filter((r) => r[8]);
    expect(withCode.length / rows.length).toBeGreaterThan(0.9);
    expect(withCode.filter((r) => parsePostcode(r[8]!) !== r[8] || !FIRST_LETTERS[r[7]!]!.includes(r[8]![0]!)).slice(0, 3)).toEqual([]);
    const distinct = new Set(withCode.map((r) => r[8])).size;
    expect(withCode.length / distinct).toBeGreaterThan(4);
  });

  it('puts Quebec streets in French form and numbers in increasing order along each street', () => {
    const quebec = rows.filter((r) => r[7] === 'QC');
    expect(quebec.length).toBeGreaterThan(1000);
    expect(quebec.filter((r) => /^(Rue|Avenue|Boulevard|Chemin) /.test(r[3]!)).length / quebec.length).toBeGreaterThan(0.6);
    const last = new Map<string, number>();
    const backwards = rows.filter((r) => {
      const key = `${r[5]}|${r[3]}|${Number(r[2]) % 2}`;
      const n = Number(r[2]);
      const before = last.get(key) ?? 0;
      last.set(key, n);
      return n < before;
    });
    expect(backwards.slice(0, 3)).toEqual([]);
  });

  it('makes about 5% of rows units of multi-unit buildings', () => {
    const units = rows.filter((r) => r[4]).length / rows.length;
    expect(units).toBeGreaterThan(0.025);
    expect(units).toBeLessThan(0.09);
  });

  it('gives bigger cities more addresses', () => {
    const count = (city: string) => rows.filter((r) => r[5] === city).length;
    expect(count('Toronto')).toBeGreaterThan(10 * count('Kingston'));
    expect(count('Kingston')).toBeGreaterThan(count('Gananoque'));
  });

  it('writes POI nodes that the project reads back and maps to taxonomy categories', () => {
    expect(nodes.length).toBeGreaterThanOrEqual(3_000);
    expect(nodes.every((n) => categoryForOsmTags(n.tags) !== null)).toBe(true);
    const named = nodes.filter((n) => n.tags.name);
    expect(named.length / nodes.length).toBeGreaterThan(0.9);
    expect(nodes.some((n) => n.tags['name:fr'])).toBe(true);
    const withAddress = nodes.filter((n) => n.tags['addr:housenumber'] && n.tags['addr:street']).length / nodes.length;
    expect(withAddress).toBeGreaterThan(0.4);
    expect(withAddress).toBeLessThan(0.8);
    expect(new Set(nodes.map((n) => categoryForOsmTags(n.tags))).size).toBeGreaterThan(60);
  });

  it('is deterministic: the same seed gives the same files', async () => {
    const again = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-corpus-'));
    try {
      await generateCorpus({ dir: again, scale: 1, addresses: 40_000, pois: 3_000, seed: 5 });
      const hash = async (d: string, f: string) => createHash('sha256').update(await readFile(path.join(d, f))).digest('hex');
      expect(await hash(again, ADDRESSES_FILE)).toBe(await hash(dir, ADDRESSES_FILE));
      expect(await hash(again, OSM_FILE)).toBe(await hash(dir, OSM_FILE));
    } finally {
      await rm(again, { recursive: true, force: true });
    }
  });
});
