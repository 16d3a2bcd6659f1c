import { createHash } from 'node:crypto';
import type { CorpusPlace } from '../../../engines/geocoding/corpus.ts';
import { PROVINCES } from '../../../engines/geocoding/text/provinces.ts';
import type { LocatorLocality } from './admin-locator.ts';

export interface BuildLocality extends LocatorLocality {
  source: string;
  sourceId: string;
  /** Address points that name it (derived localities only). */
  addressCount?: number;
}

/**
 * Label points used for a province when the build has no polygons (the polygons' own
 * representative points replace them): inside each province, near its populated south.
 */
const FALLBACK_LABEL_POINTS: Record<string, [number, number]> = {
  AB: [-114.0, 53.5], BC: [-123.4, 50.5], MB: [-97.9, 50.9], NB: [-66.2, 46.5], NL: [-56.0, 48.6],
  NS: [-63.6, 45.1], ON: [-79.9, 44.5], PE: [-63.2, 46.3], QC: [-72.5, 46.8], SK: [-106.0, 51.8],
  YT: [-135.2, 61.2], NT: [-115.9, 62.8], NU: [-68.5, 63.75],
};

/** Regions outrank every locality (the most populous has ~3 M people). */
const REGION_PROMINENCE = 1e8;

const emptyPlace = {
  locality: null, city: null, category: null, housenumber: null, street: null, postcode: null,
} as const;

/** The 13 provinces and territories with their English/French names and abbreviations as alternates. */
export function regionPlaces(labelPoints: Map<string, [number, number]>): CorpusPlace[] {
  return PROVINCES.map((p) => {
    const [lng, lat] = labelPoints.get(p.code) ?? FALLBACK_LABEL_POINTS[p.code]!;
    const names: Record<string, string> = { en: p.names.en, fr: p.names.fr };
    const alternates = [p.code, ...p.variants.filter((v) => v !== p.names.en && v !== p.names.fr)];
    // Volume 2 allows three alternates per language; the rest still resolve through resolveRegion.
    alternates.slice(0, 3).forEach((v, i) => (names[`en-alt${i + 1}`] = v));
    return {
      ...emptyPlace, layer: 'region', source: 'canmap', sourceId: p.code, id: `region:${p.code}`,
      name: p.names.en, names, lng, lat, prominence: REGION_PROMINENCE, region: p.code,
    };
  });
}

export function localityPlace(l: BuildLocality): CorpusPlace {
  return {
    ...emptyPlace, layer: 'locality', source: l.source, sourceId: l.sourceId,
    id: l.source === 'derived' ? `locality:${shortHash(l.sourceId)}` : `locality:${l.source}:${l.sourceId}`,
    name: l.name, names: l.names, lng: l.lng, lat: l.lat,
    prominence: l.population || l.addressCount || 0, region: l.region,
  };
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
