import type { DuckDBConnection } from '@duckdb/node-api';
import type { Corpus, CorpusPlace } from '../../../engines/geocoding/corpus.ts';
import { INPUT_TERMS, type GeocodingInput } from '../inputs.ts';
import { readLocalities } from '../localities.ts';
import { extractOsm, type OsmExtract } from '../osm/extract.ts';
import { readRegions, regionLocator } from '../regions.ts';
import { TAXONOMY } from '../../../engines/geocoding/taxonomy.ts';
import { ADDR_RAW_TABLE, dropInvalidAddresses, loadAddressCsv, loadOsmAddresses } from './address-sources.ts';
import { normalizeAddressText } from './address-keys.ts';
import { resolveAddresses } from './address-table.ts';
import { AdminLocator } from './admin-locator.ts';
import { exportAddresses } from './export-addresses.ts';
import { localityPlace, regionPlaces, type BuildLocality } from './places.ts';
import { buildPois } from './pois.ts';
import { buildStreets } from './streets.ts';

/**
 * Datasets in the order a merged address keeps its record: the official Open Database of
 * Addresses first, then OpenAddresses, then OpenStreetMap.
 */
export const CORPUS_SOURCES = ['oda', 'openaddresses', 'osm', 'geonames', 'canmap', 'derived'] as const;
const ADDRESS_SOURCE_RANK = [0, 1, 2, 3, 4, 5];

const ATTRIBUTION: Record<string, string> = {
  oda: INPUT_TERMS['addresses-oda'].attribution,
  openaddresses: INPUT_TERMS['addresses-oa'].attribution,
  osm: INPUT_TERMS.osm.attribution,
  geonames: INPUT_TERMS.localities.attribution,
};

export interface CorpusBuildResult {
  corpus: Corpus;
  stats: Record<string, unknown>;
}

type Progress = (fraction: number, message: string) => void;

/** Reads every input and assembles the corpus in `connection`'s database (tables addr_final, street_idx, …). */
export async function buildCorpus(connection: DuckDBConnection, inputs: GeocodingInput[], onProgress: Progress = () => {}): Promise<CorpusBuildResult> {
  const sourceIndex = (name: (typeof CORPUS_SOURCES)[number]) => CORPUS_SOURCES.indexOf(name);
  const stats: Record<string, unknown> = {};

  onProgress(0.02, 'reading regions and localities');
  const regionsInput = inputs.find((i) => i.kind === 'regions');
  const polygons = regionsInput ? await readRegions(regionsInput.path) : null;
  const localitiesInput = inputs.find((i) => i.kind === 'localities');
  const localities: BuildLocality[] = localitiesInput
    ? (await readLocalities(localitiesInput.path)).localities.map((l) => ({ ...l, source: 'geonames' }))
    : [];
  const locator = new AdminLocator(localities, polygons ? regionLocator(polygons) : null);
  stats.localities_read = localities.length;

  const extracts: OsmExtract[] = [];
  for (const input of inputs.filter((i) => i.kind === 'osm')) {
    onProgress(0.05, `reading OpenStreetMap ${input.path}`);
    extracts.push(await extractOsm(input.path));
  }
  stats.osm = extracts.map((e) => e.stats);

  onProgress(0.3, 'loading address points');
  await connection.run(ADDR_RAW_TABLE);
  const addressesRead: Record<string, number> = {};
  for (const input of inputs) {
    if (input.kind === 'addresses-oa' || input.kind === 'addresses-oda') {
      const source = input.kind === 'addresses-oa' ? 'openaddresses' : 'oda';
      addressesRead[input.path] = await loadAddressCsv(connection, input.kind, input.path, sourceIndex(source));
    }
  }
  for (const extract of extracts) addressesRead.osm = (addressesRead.osm ?? 0) + (await loadOsmAddresses(connection, extract.addresses, sourceIndex('osm')));
  stats.addresses_read = addressesRead;
  stats.addresses_dropped = await dropInvalidAddresses(connection);

  onProgress(0.45, 'normalizing address text');
  stats.distinct_values = await normalizeAddressText(connection);
  onProgress(0.55, 'attaching regions and localities, merging duplicates');
  const resolved = await resolveAddresses(connection, locator, localities, ADDRESS_SOURCE_RANK);
  stats.addresses_merged = resolved.merged;
  stats.addresses_without_locality = resolved.unlocated;
  stats.localities_derived = resolved.derivedLocalities;

  onProgress(0.65, 'deriving streets');
  const streets = await buildStreets(connection, extracts.flatMap((e) => e.streets), locator, localities, [...CORPUS_SOURCES]);
  stats.streets_from_addresses = streets.fromAddresses;
  stats.streets_from_osm_only = streets.fromOsmOnly;
  const pois = buildPois(extracts, locator, localities);
  stats.pois_merged = pois.merged;

  const regions = regionPlaces(new Map((polygons ?? []).map((r) => [r.code, r.point])));
  const localityBase = regions.length;
  const atLocality = (p: CorpusPlace): CorpusPlace => ({ ...p, locality: p.locality === null ? null : localityBase + p.locality });
  const places: CorpusPlace[] = [
    ...regions,
    ...localities.map(localityPlace),
    ...streets.places.map(atLocality),
    ...pois.places.map(atLocality),
  ];
  const streetBase = localityBase + localities.length;

  onProgress(0.75, 'ordering address points');
  const addresses = await exportAddresses(connection, streetBase);
  const counts: Record<string, number> = { address: addresses.count };
  for (const p of places) counts[p.layer] = (counts[p.layer] ?? 0) + 1;
  stats.rows = counts;

  const used = new Set<string>(places.map((p) => p.source));
  const addressSources = new Uint8Array(CORPUS_SOURCES.length);
  for (let i = 0; i < addresses.count; i++) addressSources[addresses.source[i]!] = 1;
  addressSources.forEach((seen, src) => seen && used.add(CORPUS_SOURCES[src]!));
  const attribution = Object.fromEntries(Object.entries(ATTRIBUTION).filter(([source]) => used.has(source)));
  return { corpus: { sources: [...CORPUS_SOURCES], attribution, places, addresses, taxonomy: TAXONOMY }, stats };
}
