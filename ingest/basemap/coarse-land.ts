/**
 * The national layers of the low zooms from Natural Earth 1:10m (the world-atlas npm package,
 * public domain): land as `earth` polygons and Canada's international borders as `boundaries`
 * (kind country, kind_detail 2), both cut to the basemap's region, and the country's label.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { clipLine, clipPolygon, type Box } from '../../lib/geo/clip-box.ts';
import { topoBorders, topoPolygons, type Topology } from '../../lib/geo/topojson.ts';
import { feature, type BasemapFeature } from './feature.ts';
import { labelPoint } from './geometry.ts';
import { plainNames } from './names.ts';

const require = createRequire(import.meta.url);
/** ISO 3166-1 numeric code of Canada in Natural Earth's countries. */
const CANADA = '124';

export const NATURAL_EARTH_ATTRIBUTION = 'Natural Earth (public domain), via world-atlas';

export function naturalEarthFile(name: 'land-10m.json' | 'countries-10m.json'): string {
  return require.resolve(`world-atlas/${name}`);
}

async function topology(file: string): Promise<Topology> {
  return JSON.parse(await readFile(file, 'utf8')) as Topology;
}

export async function* landFeatures(region: Box): AsyncGenerator<BasemapFeature> {
  for (const land of topoPolygons(await topology(naturalEarthFile('land-10m.json')), 'land')) {
    for (const rings of land.geometry.coordinates) {
      const clipped = clipPolygon(rings, region);
      if (clipped) yield feature('earth', { kind: 'earth', minZoom: 0 }, { type: 'Polygon', coordinates: clipped });
    }
  }
}

export async function* countryFeatures(region: Box): AsyncGenerator<BasemapFeature> {
  const countries = await topology(naturalEarthFile('countries-10m.json'));
  for (const border of topoBorders(countries, 'countries')) {
    if (!border.ids.includes(CANADA)) continue;
    for (const line of clipLine(border.line, region)) {
      yield feature('boundaries', { kind: 'country', minZoom: 0, extra: { kind_detail: 2 } }, { type: 'LineString', coordinates: line });
    }
  }
  const canada = topoPolygons(countries, 'countries').find((c) => c.id === CANADA);
  if (canada) {
    yield feature('places', { kind: 'country', minZoom: 0, extra: { sort_key: 0, population_rank: 15 } },
      { type: 'Point', coordinates: labelPoint(canada.geometry) }, plainNames('Canada', { en: 'Canada', fr: 'Canada' }));
  }
}
