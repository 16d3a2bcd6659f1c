import type { GeocodeResult, MatchReason, MatchType, Precision, ResultAddress, ResultLayer } from './types.ts';
import { L_LOCALITY, L_POI, L_STREET, LAYER_CODES } from './index/sections.ts';
import type { IndexView } from './index/view.ts';
import { pickName } from './names.ts';

/** A ranked answer row: an entity, or an address point on a street entity. */
export interface Hit {
  entity: number;
  /** Address point id, or -1 for the entity itself. */
  address: number;
  score: number;
  reasons: MatchReason[];
  /** Coarser than asked (a street or city standing in for an address). */
  fallback: boolean;
  distance?: number;
}

const REASON_ORDER: readonly MatchReason[] = [
  'housenumber_not_matched', 'housenumber_differs', 'unit_not_verified', 'unit_differs',
  'postalcode_not_verified', 'postalcode_differs', 'region_not_verified', 'region_differs',
  'terms_unmatched', 'fuzzy_match',
];

const PRECISION: Record<ResultLayer, Precision> = {
  address: 'point', poi: 'point', street: 'street', locality: 'locality', region: 'region',
};

export function hitLayer(view: IndexView, hit: Hit): ResultLayer {
  return hit.address >= 0 ? 'address' : LAYER_CODES[view.a.entLayer[hit.entity]!]!;
}

export function hitPoint(view: IndexView, hit: Hit): [number, number] {
  return hit.address >= 0
    ? [view.a.adLng[hit.address]!, view.a.adLat[hit.address]!]
    : [view.a.entLng[hit.entity]!, view.a.entLat[hit.entity]!];
}

export function entityName(view: IndexView, e: number, lang: string): string {
  return pickName(view.entityNames(e), lang, view.str(view.a.entName[e]!));
}

/** Display city of a street or POI: its own city text, else its locality's name. */
export function entityCity(view: IndexView, e: number, lang: string): string | null {
  const city = view.cityOf(e);
  if (city) return city;
  const loc = view.a.entLocality[e]!;
  return loc >= 0 ? entityName(view, loc, lang) || null : null;
}

/** "401-43 Hanna Ave, Toronto": unit-civic, street, city (parts that exist). */
export function addressLabel(housenumber: string, unit: string, street: string, city: string | null): string {
  if (!street) return '';
  const civic = housenumber ? `${unit ? `${unit}-` : ''}${housenumber} ` : '';
  return `${civic}${street}${city ? `, ${city}` : ''}`;
}

export interface ResultOptions {
  lang: string;
  /** search and autocomplete */
  withScore: boolean;
  /** false for reverse, nearby and autocomplete: match_type unknown, no reasons */
  matchApplies: boolean;
  /** nearby */
  withCategory?: boolean;
}

export function toGeocodeResult(view: IndexView, hit: Hit, opts: ResultOptions): GeocodeResult {
  const a = view.a;
  const e = hit.entity;
  const layer = hitLayer(view, hit);
  const [lng, lat] = hitPoint(view, hit);
  const region = view.regionCode(e);
  const address: ResultAddress = {};
  let id: string;
  let name: string;
  let names: Record<string, string> | undefined;
  let source: string;
  let sourceId: string;

  if (hit.address >= 0) {
    const p = hit.address;
    const street = entityName(view, e, opts.lang);
    const city = entityCity(view, e, opts.lang);
    const hn = view.hnDisplay[a.adHn[p]!]!;
    const unit = view.str(a.adUnit[p]!);
    const pc = a.adPostcode[p]!;
    source = view.meta.sources[a.adSource[p]!]!;
    sourceId = view.str(a.adSourceId[p]!);
    id = `address:${source}:${sourceId}`;
    name = addressLabel(hn, unit, street, city);
    if (hn) address.housenumber = hn;
    if (unit) address.unit = unit;
    if (street) address.street = street;
    if (city) address.city = city;
    if (pc > 0) address.postcode = view.postcodes[pc - 1]!;
  } else {
    const l = a.entLayer[e]!;
    names = view.entityNames(e);
    name = entityName(view, e, opts.lang);
    id = view.str(a.entId[e]!);
    source = view.meta.sources[a.entSource[e]!]!;
    sourceId = view.str(a.entSourceId[e]!);
    if (l === L_POI) {
      const hn = view.str(a.entHousenumber[e]!);
      const street = view.str(a.entStreet[e]!);
      if (hn) address.housenumber = hn;
      if (street) address.street = street;
    } else if (l === L_STREET) {
      if (name) address.street = name;
    }
    if (l === L_POI || l === L_STREET) {
      const city = entityCity(view, e, opts.lang);
      if (city) address.city = city;
    } else if (l === L_LOCALITY && name) {
      address.city = name;
    }
    if (l === L_POI) {
      const pc = view.str(a.entPostcode[e]!);
      if (pc) address.postcode = pc;
    }
  }
  if (region) address.region = region;
  address.country = 'CA';

  const category = opts.withCategory ? view.category(e) : null;
  const reasons = opts.matchApplies ? REASON_ORDER.filter((r) => hit.reasons.includes(r)) : [];
  const matchType: MatchType = !opts.matchApplies ? 'unknown' : hit.fallback ? 'fallback' : reasons.length ? 'partial' : 'exact';
  const out: GeocodeResult = {
    id, name, layer, lng, lat,
    ...(opts.withScore ? { score: Math.round(hit.score * 1000) / 1000 } : {}),
    ...(hit.distance !== undefined ? { distance: hit.distance } : {}),
    ...(category ? { category } : {}),
    ...(names ? { names } : {}),
    source,
    source_id: sourceId,
    match_type: matchType,
    precision: PRECISION[layer],
    ...(reasons.length ? { match_reasons: reasons } : {}),
    address,
  };
  return out;
}
