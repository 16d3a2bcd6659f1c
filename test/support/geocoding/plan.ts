/**
 * How many address points and POIs each real locality gets: in proportion to its population
 * (rounded up, with a floor so that every village has a few streets), so that the totals are at
 * least the asked-for counts.
 */
import type { Locality } from '../../../ingest/geocoding/localities.ts';

export interface LocalityPlan {
  locality: Locality & { region: string };
  addresses: number;
  pois: number;
  /** Radius of the built-up area around the locality's point, km. */
  radiusKm: number;
}

export function planLocalities(localities: readonly Locality[], addresses: number, pois: number): LocalityPlan[] {
  const placed = localities.filter((l): l is Locality & { region: string } => l.region !== null);
  const totalPopulation = placed.reduce((sum, l) => sum + Math.max(l.population, 1), 0);
  const addressFloor = Math.max(10, Math.round(addresses / 150_000));
  const poiFloor = pois > 0 ? 1 : 0;
  return placed.map((locality) => {
    const share = Math.max(locality.population, 1) / totalPopulation;
    return {
      locality,
      addresses: Math.max(addressFloor, Math.ceil(addresses * share)),
      pois: Math.max(poiFloor, Math.ceil(pois * share)),
      radiusKm: 0.6 + 0.012 * Math.sqrt(Math.max(locality.population, 1)),
    };
  });
}
