import { bboxContains } from '../../lib/geo/bbox.ts';
import { verifyBounded } from './bounded.ts';
import type { CandidateCollector } from './candidates.ts';
import { pickAddress, prepareCivic, streetPostcode, type CivicQuery } from './housenumber.ts';
import { L_LOCALITY, L_POI, L_REGION, L_STREET, LAYER_CODES } from './index/sections.ts';
import type { IndexView } from './index/view.ts';
import { matchTerms, type TermMatch } from './match.ts';
import { focusBonus, nameCoverage, searchScore, W } from './rank.ts';
import { hitPoint, type Hit } from './results.ts';
import { localityScope } from './scope.ts';
import { civicKey } from './text/fold.ts';
import type { Term } from './terms.ts';
import type { MatchReason, ResultLayer } from './types.ts';
import type { BBox } from '../../lib/geo/bbox.ts';

/** Rows verified per posting set (bounds the work of very common words). */
export const CANDIDATE_CAP = 8000;
/** Streets whose address points are searched for an asked civic number. */
const CIVIC_STREETS = 300;

export interface CoreQuery {
  terms: Term[];
  /** Terms generating place candidates when not `terms` (structured: the `city` words). */
  placeTerms?: Term[];
  housenumber?: string;
  unit?: string;
  postcode?: string;
  /** Result layers allowed (the layers control intersected with what the mode answers). */
  layers: ReadonlySet<ResultLayer>;
  bbox?: BBox;
  region?: string;
  focus?: { lng: number; lat: number };
  /** Category index filter (places search). */
  categories?: ReadonlySet<number>;
  limit: number;
  /** Every answer is coarser than asked (postal delivery queries answered by their community). */
  allFallback?: boolean;
  /** A street line was given (structured): streets and cities stand in for it. */
  addressAsked?: boolean;
  /** Structured: a differing postcode excludes the row instead of marking it. */
  postcodeExcludes?: boolean;
}

interface Scored {
  e: number;
  m: TermMatch;
  score: number;
}

/** Shared pipeline of search, structured and places search: candidates → match → civic → filter → rank. */
export function runCore(view: IndexView, collector: CandidateCollector, q: CoreQuery): Hit[] {
  const a = view.a;
  if (q.bbox && (q.bbox.minLon > q.bbox.maxLon || q.bbox.minLat > q.bbox.maxLat)) return [];
  const withNumber = q.housenumber !== undefined;
  const civic = prepareCivic(view, q.housenumber, q.unit, q.postcode);
  const numberKey = q.housenumber !== undefined ? civicKey(q.housenumber) : '';
  const wantAddress = withNumber && q.layers.has('address');
  const wantStreet = q.layers.has('street');
  const placeLayers = new Set<number>();
  for (const l of ['region', 'locality', 'poi'] as const) if (q.layers.has(l)) placeLayers.add(LAYER_CODES.indexOf(l));
  const strongTerms = q.terms.some((t) => !t.weak && !t.optional && t.role !== 'city');

  const admissible = (e: number): boolean => {
    if (q.region !== undefined) {
      const r = view.regionCode(e);
      if (r !== null && r !== q.region) return false;
    }
    if (q.categories && !q.categories.has(a.entCategory[e]!)) return false;
    return true;
  };
  const verify = (e: number): Scored | null => {
    if (!admissible(e)) return null;
    const m = matchTerms(view, q.terms, e);
    if (m.ownCount === 0) return null;
    // A street named only with weak words ("East Boulevard") is kept when the query names all of
    // it and every query word is explained (not "Street" for "Arlington Street", nor the POI "West").
    if (strongTerms && m.strongOwn === 0 && !(a.entLayer[e] === L_STREET && m.unmatched === 0 && nameCoverage(view, e, m) >= 1)) return null;
    return { e, m, score: searchScore(view, e, m, { withNumber }) };
  };

  const scope = localityScope(view, q.terms);
  // Rows having every required word first; when neither posting set has any, the union of the
  // rarest words' rows (partial matches). Structured `city` words only generate place rows.
  const placeTerms = q.placeTerms ?? q.terms;
  const wantPlaces = placeLayers.size > 0;
  const wantStreets = wantStreet || wantAddress;
  let placeRows = wantPlaces ? collector.collect(placeTerms, 'places', CANDIDATE_CAP, scope, !!q.placeTerms) : [];
  const placesComplete = wantPlaces && collector.complete && !q.placeTerms;
  let streetRows = wantStreets ? collector.collect(q.terms, 'streets', CANDIDATE_CAP, scope, false) : [];
  const streetsComplete = wantStreets && collector.complete;
  if (!placesComplete && !streetsComplete) {
    if (wantPlaces && !q.placeTerms) placeRows = collector.collect(placeTerms, 'places', CANDIDATE_CAP, scope);
    if (wantStreets) streetRows = collector.collect(q.terms, 'streets', CANDIDATE_CAP, scope);
  }
  const hits: Hit[] = [];
  const bounded = boundApplies(q);
  if (bounded) {
    // No civic part, nothing filtering or moving hits after ranking: rows that cannot reach the
    // limit-th score are not verified (most rows of a city or chain name).
    const places = inRowOrder(placeRows.filter((e) => placeLayers.has(a.entLayer[e]!)));
    hits.push(...verifyBounded(view, q.terms, q.limit, places, inRowOrder(wantStreet ? streetRows : []), (e, street) => {
      const s = verify(e);
      return s && (street ? streetHit(view, s, q, civic) : placeHit(view, s, q, civic, numberKey));
    }));
  } else {
    // Verified in row order: the rows' columns are then read front to back (answers are ranked after).
    for (const e of inRowOrder(placeRows)) {
      if (!placeLayers.has(a.entLayer[e]!)) continue;
      const s = verify(e);
      if (s) hits.push(placeHit(view, s, q, civic, numberKey));
    }
  }
  if (!bounded && (wantStreet || wantAddress)) {
    const streets: Scored[] = [];
    for (const e of inRowOrder(streetRows)) {
      const s = verify(e);
      if (s) streets.push(s);
    }
    if (withNumber) streets.sort((x, y) => y.score - x.score || x.e - y.e);
    for (let k = 0; k < streets.length; k++) {
      const s = streets[k]!;
      let pick = wantAddress && k < CIVIC_STREETS ? pickAddress(view, s.e, civic) : null;
      // Structured: an address point contradicting the postcode is dropped; its street may stand in.
      if (pick && q.postcodeExcludes && pick.reasons.includes('postalcode_differs')) pick = null;
      if (pick) {
        hits.push({ entity: s.e, address: pick.address, score: s.score + pick.delta, reasons: [...baseReasons(view, s, q), ...pick.reasons], fallback: false });
      } else if (wantStreet) {
        hits.push(streetHit(view, s, q, civic));
      }
    }
  }

  const out: Hit[] = [];
  // A hit's point is read only when a bbox or focus needs it (a random read per hit otherwise).
  const placed = q.bbox !== undefined || q.focus !== undefined;
  for (const hit of hits) {
    if (q.postcodeExcludes && hit.reasons.includes('postalcode_differs')) continue;
    if (placed) {
      const [lng, lat] = hitPoint(view, hit);
      if (q.bbox && !bboxContains(q.bbox, lng, lat)) continue;
      hit.score += focusBonus(q.focus, lng, lat);
    }
    if (q.allFallback) hit.fallback = true;
    out.push(hit);
  }
  out.sort((x, y) => y.score - x.score || x.entity - y.entity || x.address - y.address);
  return out.slice(0, q.limit);
}

/**
 * verifyBounded's bound (searchBound) holds: search words (no autocomplete prefix), no civic
 * number, unit or postcode, and no bbox or focus to drop or move hits after ranking.
 */
function boundApplies(q: CoreQuery): boolean {
  return q.terms.every((t) => t.role === 'any' && t.ranges.length === 0) && q.placeTerms === undefined
    && q.housenumber === undefined && q.unit === undefined && q.postcode === undefined
    && q.bbox === undefined && q.focus === undefined && !q.postcodeExcludes && q.limit > 0;
}

function inRowOrder(rows: readonly number[]): Uint32Array {
  return Uint32Array.from(rows).sort();
}

function baseReasons(view: IndexView, s: Scored, q: CoreQuery): MatchReason[] {
  const r: MatchReason[] = [];
  if (s.m.unmatched > 0) r.push('terms_unmatched');
  if (s.m.fuzzy > 0) r.push('fuzzy_match');
  if (s.m.region === 'differs') r.push('region_differs');
  if (s.m.region === 'unverified' || (q.region !== undefined && view.regionCode(s.e) === null)) r.push('region_not_verified');
  return r;
}

function streetHit(view: IndexView, s: Scored, q: CoreQuery, civic: CivicQuery): Hit {
  const reasons = baseReasons(view, s, q);
  let score = s.score;
  if (q.housenumber !== undefined) reasons.push('housenumber_not_matched');
  if (q.unit !== undefined) reasons.push('unit_not_verified');
  if (civic.postcode >= 0) {
    const check = civic.postcode > 0 ? streetPostcode(view, s.e, civic.postcode) : view.a.entAddrCount[s.e] ? 'differs' : 'unverified';
    if (check === 'ok') score += W.postcodeOk;
    else if (check === 'unverified') reasons.push('postalcode_not_verified');
    else {
      reasons.push('postalcode_differs');
      score -= W.postcodeDiffers;
    }
  }
  return { entity: s.e, address: -1, score, reasons, fallback: q.housenumber !== undefined };
}

function placeHit(view: IndexView, s: Scored, q: CoreQuery, civic: CivicQuery, numberKey: string): Hit {
  const a = view.a;
  const e = s.e;
  const layer = a.entLayer[e]!;
  const reasons = baseReasons(view, s, q);
  let score = s.score;
  let fallback = false;
  if (layer === L_POI) {
    if (q.housenumber !== undefined && !numberIsInName(view, e, numberKey)) {
      const own = a.entHousenumber[e]!;
      if (!view.str(own)) reasons.push('housenumber_not_matched');
      else if (ownNumberKey(view, own) !== numberKey) reasons.push('housenumber_differs');
      else score += W.addressFound / 2;
    }
    if (q.unit !== undefined) reasons.push('unit_not_verified');
    if (civic.postcode >= 0) {
      const own = view.str(a.entPostcode[e]!);
      if (!own) reasons.push('postalcode_not_verified');
      else if (civic.postcode > 0 && view.postcodes[civic.postcode - 1] === own) score += W.postcodeOk;
      else {
        reasons.push('postalcode_differs');
        score -= W.postcodeDiffers;
      }
    }
  } else {
    // A locality or region standing in for a civic address is coarser than asked.
    if (q.housenumber !== undefined) {
      reasons.push('housenumber_not_matched');
      fallback = true;
    }
    if (q.addressAsked && (layer === L_LOCALITY || layer === L_REGION)) fallback = true;
    if (q.unit !== undefined) reasons.push('unit_not_verified');
    if (civic.postcode >= 0) reasons.push('postalcode_not_verified');
  }
  return { entity: e, address: -1, score, reasons, fallback };
}

const numberKeys = new WeakMap<IndexView, Map<number, string>>();

/** civicKey of a POI's own house number (string pool id), computed once per distinct number. */
function ownNumberKey(view: IndexView, id: number): string {
  let keys = numberKeys.get(view);
  if (!keys) numberKeys.set(view, (keys = new Map()));
  let key = keys.get(id);
  if (key === undefined) {
    if (keys.size >= 100_000) keys.clear();
    keys.set(id, (key = civicKey(view.str(id))));
  }
  return key;
}

/** "7-Eleven", "Pier 21": a leading number read as a civic number (its compact `key`) may be part of the name. */
function numberIsInName(view: IndexView, e: number, key: string): boolean {
  const a = view.a;
  for (let k = a.entTokOffsets[e]!; k < a.entTokOffsets[e + 1]!; k++) if (view.tokens[a.entTokIds[k]!] === key) return true;
  return false;
}
