import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';
import { distance as levenshtein } from 'fastest-levenshtein';
import type { Locality } from '../localities.ts';
import { fold } from '../../../engines/geocoding/text/fold.ts';
import { regionTokenSpans } from '../../../engines/geocoding/text/provinces.ts';

/** What the locator needs of a locality. */
export type LocatorLocality = Pick<Locality, 'name' | 'names' | 'lng' | 'lat' | 'population' | 'region'>;

/** Beyond this, a point is not said to be in the nearest locality. */
const NEAREST_LOCALITY_KM = 60;
/** Localities compared for a point (the nearest ones; a big city farther off can still win). */
const LOCALITY_CANDIDATES = 32;

/** How far a locality's pull reaches: ~0.8 km for a village of 1,000, ~8 km for a city of 600,000. */
function influenceKm(population: number): number {
  return 0.5 + Math.sqrt(Math.max(population, 0)) / 100;
}

/** A misspelt city text is matched only to a locality this close to its address points. */
const MISSPELT_CITY_KM = 50;

/** Words around a municipality's name that sources add ("City of Burnaby", "North Vancouver City"). */
const MUNICIPAL_PREFIX = /^(?:city|town|village|district|municipality|township|ville|municipalite|canton|cite) (?:of |de |du |d )?/;
const MUNICIPAL_SUFFIX = / (?:city|town|village|township)$/;

/**
 * A source's city text reduced to the name a locality list uses: folded, without a trailing
 * province ("Vancouver, BC") or municipal words.
 */
export function cityNameKey(city: string): { key: string; region: string | null } {
  const folded = fold(city);
  let tokens = folded.replace(MUNICIPAL_PREFIX, '').split(' ').filter(Boolean);
  const last = regionTokenSpans(tokens).find((s) => s.end === tokens.length && s.start > 0);
  if (last) tokens = tokens.slice(0, last.start);
  const key = tokens.join(' ').replace(MUNICIPAL_SUFFIX, '');
  return { key: key || folded, region: last?.code ?? null };
}

/**
 * Attaches locality and region to points and city texts: region from the province polygons when
 * given (else from the nearest locality), locality by name within the region or, for a point
 * with no city, the nearest locality of its region.
 */
export class AdminLocator {
  private readonly points: KDBush | null;
  private readonly byName = new Map<string, number[]>();

  constructor(
    private readonly localities: readonly LocatorLocality[],
    private readonly regionAt: ((lng: number, lat: number) => string | null) | null,
  ) {
    if (localities.length) {
      const index = new KDBush(localities.length, 16, Float64Array);
      for (const l of localities) index.add(l.lng, l.lat);
      this.points = index.finish();
    } else {
      this.points = null;
    }
    localities.forEach((l, i) => {
      for (const name of new Set([l.name, ...Object.values(l.names)].map((n) => cityNameKey(n).key))) {
        if (!name) continue;
        const list = this.byName.get(name);
        if (list) list.push(i);
        else this.byName.set(name, [i]);
      }
    });
  }

  /** Province of a point: polygons when the build has them, else the nearest locality's. */
  regionOf(lng: number, lat: number): string | null {
    if (this.regionAt) return this.regionAt(lng, lat);
    const nearest = this.localityAt(lng, lat, null);
    return nearest === null ? null : this.localities[nearest]!.region;
  }

  /**
   * The locality a point belongs to when no source says: of the localities within
   * NEAREST_LOCALITY_KM (in `region` when given), the one nearest in distance scaled by its size,
   * so a downtown address goes to the city rather than to a neighbourhood the locality list
   * also holds (GeoNames has "West End" a few hundred metres from downtown Vancouver).
   */
  localityAt(lng: number, lat: number, region: string | null): number | null {
    if (!this.points) return null;
    const filter = region ? (i: number) => this.localities[i]!.region === region : undefined;
    let best: number | null = null;
    let bestScore = Infinity;
    for (const i of around(this.points, lng, lat, LOCALITY_CANDIDATES, NEAREST_LOCALITY_KM, filter)) {
      const l = this.localities[i]!;
      const score = distance(lng, lat, l.lng, l.lat) / influenceKm(l.population);
      if (score < bestScore) [best, bestScore] = [i, score];
    }
    return best;
  }

  /**
   * The locality a source's city text names: same name (or alternate) in the region, without
   * a trailing province or municipal words; with no region, the most populous of that name.
   * Failing that, one spelling mistake (two in long names) is forgiven for a locality within
   * MISSPELT_CITY_KM of `near` (the mean of the addresses giving that city).
   */
  localityByName(city: string, region: string | null, near?: { lng: number; lat: number }): number | null {
    const { key, region: named } = cityNameKey(city);
    const inRegion = region ?? named;
    const candidates = (this.byName.get(key) ?? []).filter((i) => !inRegion || this.localities[i]!.region === inRegion);
    if (candidates.length) {
      return candidates.reduce((best, i) => (this.localities[i]!.population > this.localities[best]!.population ? i : best));
    }
    if (!near || !this.points || key.length < 5) return null;
    const allowed = key.length >= 8 ? 2 : 1;
    const [match] = around(this.points, near.lng, near.lat, 1, MISSPELT_CITY_KM, (i: number) => {
      const l = this.localities[i]!;
      if (inRegion && l.region !== inRegion) return false;
      return [l.name, ...Object.values(l.names)].some((n) => levenshtein(fold(n), key) <= allowed);
    });
    return match ?? null;
  }
}
