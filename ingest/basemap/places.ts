/**
 * Places → the `places` layer: localities (cities, towns, villages, hamlets), neighbourhoods and
 * macrohoods from OSM place nodes, and the coarse country and region (province) labels. The
 * styles size labels by `population_rank` and order them by `sort_key` (lower first).
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import type { Classified } from './feature.ts';

/** Protomaps' population ranks: 0 (none) to 15 (≥ 10M), in steps of about half an order of magnitude. */
const RANK_FLOORS = [0, 1, 200, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000];

export function populationRank(population: number): number {
  let rank = 0;
  for (let i = 0; i < RANK_FLOORS.length; i++) if (population >= RANK_FLOORS[i]!) rank = i;
  return rank;
}

/** The zoom a locality label appears at, from its population (Canada's cities from z3). */
export function localityZoom(population: number, detail: string): number {
  if (population >= 1_000_000) return 3;
  if (population >= 250_000) return 4;
  if (population >= 100_000) return 5;
  if (population >= 50_000) return 6;
  if (population >= 20_000) return 7;
  if (population >= 5_000) return 8;
  if (population >= 1_000) return 9;
  return detail === 'city' ? 7 : detail === 'town' ? 9 : detail === 'village' ? 11 : 12;
}

function population(tags: OsmTags): number {
  const n = Number((tags.population ?? '').replace(/[ ,]/g, ''));
  return Number.isFinite(n) && n > 0 ? n : 0;
}

const LOCALITY_DETAILS: ReadonlySet<string> = new Set(['city', 'town', 'village', 'hamlet', 'isolated_dwelling', 'locality']);
const HOOD_ZOOMS: Readonly<Record<string, [kind: string, zoom: number]>> = {
  borough: ['macrohood', 10], suburb: ['macrohood', 11], quarter: ['neighbourhood', 12], neighbourhood: ['neighbourhood', 13],
};

export function classifyPlace(tags: OsmTags): Classified | null {
  const place = tags.place;
  if (place === undefined || !tags.name) return null;
  const people = population(tags);
  const extra: Record<string, string | number> = { population_rank: populationRank(people) };
  if (people > 0) extra.population = people;
  if (LOCALITY_DETAILS.has(place)) {
    const capital = tags.capital === 'yes' || tags.capital === '2' ? 'yes' : tags.capital === '4' ? '4' : undefined;
    if (capital) extra.capital = capital;
    const minZoom = localityZoom(people, place);
    return { kind: 'locality', kindDetail: place, minZoom, extra: { ...extra, sort_key: sortKey(minZoom, people) } };
  }
  const hood = HOOD_ZOOMS[place];
  if (!hood) return null;
  return { kind: hood[0], kindDetail: place, minZoom: hood[1], extra: { ...extra, sort_key: sortKey(hood[1], people) } };
}

/** Earlier-appearing and more populous places are placed first. */
export function sortKey(minZoom: number, people: number): number {
  return minZoom * 100 - Math.min(99, populationRank(people) * 6);
}
