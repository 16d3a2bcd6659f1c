import { readFile } from 'node:fs/promises';
import { DLS_EXTENT, dlsCellsInBbox, dlsFeature } from '../../engines/survey/dls.ts';
import { ntsCellsInBbox, ntsFeature, NTS_CANADA_BBOX } from '../../engines/survey/nts.ts';
import { NdjsonError, readNdjsonFeatures } from '../../engines/tiles/ndjson.ts';
import type { LayerInput } from '../../schemas/catalog-definition.ts';
import { InvalidInputError } from '../errors.ts';
import { readOsmAreas } from '../osm/areas.ts';
import type { OsmTags } from '../osm/pbf-primitive-block.ts';

/** A feature as an input gives it, before the layer's properties are applied. */
export interface SourceFeature {
  id: string | undefined;
  properties: Readonly<Record<string, unknown>>;
  geometry: GeoJSON.Geometry | null;
}

export interface InputReport {
  /** Features the input could not give, with why (assembly failures of OSM areas, ...). */
  skipped: (id: string, reason: string) => void;
  progress: (fraction: number, message: string) => void;
}

type TagFilter = Extract<LayerInput, { kind: 'osm' }>['where'][number];

function matches(filter: TagFilter, tags: OsmTags): boolean {
  return Object.entries(filter).every(([key, want]) => {
    const value = tags[key];
    if (value === undefined) return false;
    return want === true || (Array.isArray(want) ? want.includes(value) : value === want);
  });
}

async function* osmFeatures(input: Extract<LayerInput, { kind: 'osm' }>, report: InputReport): AsyncGenerator<SourceFeature> {
  const { areas, skipped } = await readOsmAreas(input.path, (tags) => input.where.some((f) => matches(f, tags)), report.progress);
  for (const s of skipped) report.skipped(s.osmId, s.reason);
  for (const area of areas) yield { id: area.osmId, properties: area.tags, geometry: area.geometry };
}

async function* geojsonFeatures(path: string): AsyncGenerator<SourceFeature> {
  let parsed: GeoJSON.FeatureCollection;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8')) as GeoJSON.FeatureCollection;
  } catch (err) {
    throw new InvalidInputError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (parsed?.type !== 'FeatureCollection' || !Array.isArray(parsed.features)) throw new InvalidInputError(`${path} is not a GeoJSON FeatureCollection`);
  for (const f of parsed.features) yield { id: f.id === undefined ? undefined : String(f.id), properties: f.properties ?? {}, geometry: f.geometry };
}

async function* ndjsonFeatures(path: string): AsyncGenerator<SourceFeature> {
  try {
    for await (const f of readNdjsonFeatures(path)) yield { id: f.id === undefined ? undefined : String(f.id), properties: f.properties ?? {}, geometry: f.geometry };
  } catch (err) {
    // A malformed line is bad input: retrying the job cannot fix it.
    throw err instanceof NdjsonError ? new InvalidInputError(err.message) : err;
  }
}

function* ntsFeatures(input: Extract<LayerInput, { kind: 'nts' }>): Generator<SourceFeature> {
  for (const cell of ntsCellsInBbox(input.bbox ?? NTS_CANADA_BBOX, input.level)) {
    const feature = ntsFeature(cell);
    yield { id: String(feature.properties.id), properties: feature.properties, geometry: feature.geometry };
  }
}

function* dlsFeatures(input: Extract<LayerInput, { kind: 'dls' }>): Generator<SourceFeature> {
  for (const cell of dlsCellsInBbox(input.bbox ?? DLS_EXTENT, input.level)) {
    const feature = dlsFeature(cell);
    const geometry: GeoJSON.Geometry = input.labels ? { type: 'Point', coordinates: [...cell.centre] } : feature.geometry;
    yield { id: cell.id, properties: feature.properties, geometry };
  }
}

/** The features of one input, streamed where the format allows. */
export function readInput(input: LayerInput, report: InputReport): AsyncIterable<SourceFeature> | Iterable<SourceFeature> {
  switch (input.kind) {
    case 'osm': return osmFeatures(input, report);
    case 'geojson': return geojsonFeatures(input.path);
    case 'ndjson': return ndjsonFeatures(input.path);
    case 'nts': return ntsFeatures(input);
    case 'dls': return dlsFeatures(input);
  }
}
