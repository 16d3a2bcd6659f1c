import { L_LOCALITY, L_REGION, L_STREET } from './index/sections.ts';
import type { IndexView } from './index/view.ts';
import { lowerBoundU32 } from './sorted.ts';
import type { Term } from './terms.ts';

export type RegionCheck = 'none' | 'ok' | 'unverified' | 'differs';

/** How a row's own names and its context account for the query terms. */
export interface TermMatch {
  /** Matched weight / total weight (0..1). */
  fraction: number;
  /** Token ids of the row's own names that matched (for the exact-name check). */
  ownIds: number[];
  strongOwn: number;
  ownCount: number;
  /** Non-optional terms nothing accounted for (a contradicted region is reported in `region`). */
  unmatched: number;
  /** Terms matched through typo alternatives only. */
  fuzzy: number;
  /** A term matched the row's locality or display city. */
  city: boolean;
  /** Share of the locality's (else the display city's) name the query named (North Vancouver ≠ Vancouver). */
  cityCoverage: number;
  region: RegionCheck;
  /** Index of the first non-optional term nothing accounted for, -1 when none. */
  firstUnmatched: number;
}

const NONE = -1;

/**
 * Checks every term against a row. Context = the row's locality names, its display city and
 * its province's spellings; a province named at the query's tail is compared by code.
 */
export function matchTerms(view: IndexView, terms: readonly Term[], e: number): TermMatch {
  const a = view.a;
  const ownFrom = a.entTokOffsets[e]!;
  const ownTo = a.entTokOffsets[e + 1]!;
  const layer = a.entLayer[e]!;
  const isLocality = layer === L_LOCALITY;
  // The row's context (locality, city, province) is read the first time a term needs it: rows
  // whose own names account for every term (single-word queries) never touch those columns.
  let contextRead = false;
  let loc = -1;
  let city = -1;
  let code: string | null = null;
  let regionEntity: number | undefined;

  let total = 0;
  let matched = 0;
  const out: TermMatch = { fraction: 0, ownIds: [], strongOwn: 0, ownCount: 0, unmatched: 0, fuzzy: 0, city: false, cityCoverage: 0, region: 'none', firstUnmatched: -1 };
  let locIds: number[] | null = null;
  let cityIds: number[] | null = null;
  let nearIds: Map<number, number> | null = null;
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]!;
    total += term.weight;
    if (term.role !== 'city' || isLocality) {
      let hit = findIn(a.entTokIds, ownFrom, ownTo, term);
      if (hit === NONE && layer === L_STREET && term.onStreets) hit = findIds(a.entTokIds, ownFrom, ownTo, term.onStreets);
      if (hit !== NONE) {
        matched += term.weight;
        out.ownCount++;
        if (!term.weak && !term.optional) out.strongOwn++;
        out.ownIds.push(hit >>> 1);
        if (hit & 1) out.fuzzy++;
        continue;
      }
    }
    if (term.role !== 'name' && !contextRead) {
      contextRead = true;
      loc = isLocality || layer === L_REGION ? -1 : a.entLocality[e]!;
      city = layer === L_LOCALITY || layer === L_REGION ? -1 : a.entCity[e]!;
      code = view.regionCode(e);
      regionEntity = layer === L_REGION || code === null ? undefined : view.meta.regionEntity[code];
    }
    if (term.region !== null && term.role !== 'name') {
      if (code === term.region) {
        matched += term.weight;
        if (out.region !== 'differs') out.region = 'ok';
      } else if (code === null) {
        matched += term.weight / 2;
        if (out.region === 'none' || out.region === 'ok') out.region = 'unverified';
      } else {
        out.region = 'differs';
      }
      continue;
    }
    if (term.role !== 'name') {
      let hit = NONE;
      if (loc >= 0) {
        hit = findIn(a.entTokIds, a.entTokOffsets[loc]!, a.entTokOffsets[loc + 1]!, term);
        if (hit !== NONE) (locIds ??= []).push(hit >>> 1);
      }
      if (hit === NONE && city >= 0) {
        hit = findIn(a.cityTokIds, a.cityTokOffsets[city]!, a.cityTokOffsets[city + 1]!, term);
        if (hit !== NONE) (cityIds ??= []).push(hit >>> 1);
      }
      if (hit !== NONE) {
        matched += term.weight;
        out.city = true;
        if (hit & 1) out.fuzzy++;
        continue;
      }
      // Province abbreviations fold to letters (N.B. → n b): a whole directional or letter is not a province.
      if (regionEntity !== undefined && (term.ranges.length > 0 || (!term.weak && term.text.length > 1))) {
        hit = findIn(a.entTokIds, a.entTokOffsets[regionEntity]!, a.entTokOffsets[regionEntity + 1]!, term);
        if (hit !== NONE) {
          matched += term.weight;
          if (hit & 1) out.fuzzy++;
          continue;
        }
      }
      if (!isLocality && layer !== L_REGION) {
        const near = nearbyNamedLocality(view, term, e);
        if (near >= 0) {
          matched += term.weight;
          out.city = true;
          (nearIds ??= new Map()).set(near, (nearIds.get(near) ?? 0) + 1);
          continue;
        }
      }
    }
    if (!term.optional && out.unmatched++ === 0) out.firstUnmatched = i;
  }
  out.fraction = total > 0 ? matched / total : 0;
  if (locIds) out.cityCoverage = Math.min(1, distinctCount(locIds) / Math.max(1, a.entNameTokCount[loc]!));
  if (cityIds) {
    const size = a.cityTokOffsets[city + 1]! - a.cityTokOffsets[city]!;
    out.cityCoverage = Math.max(out.cityCoverage, Math.min(1, distinctCount(cityIds) / Math.max(1, size)));
  }
  if (nearIds) {
    for (const [l, n] of nearIds) {
      out.cityCoverage = Math.max(out.cityCoverage, NEAR_CITY_FACTOR * Math.min(1, n / Math.max(1, a.entNameTokCount[l]!)));
    }
  }
  return out;
}

/** Number of distinct values of a short list (no Set per row). */
export function distinctCount(ids: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < ids.length; i++) {
    let j = 0;
    while (j < i && ids[j] !== ids[i]) j++;
    if (j === i) n++;
  }
  return n;
}

/** A named city the row is near but not attached to (a neighbourhood of it, a suburb) counts less. */
const NEAR_CITY_FACTOR = 0.7;

/**
 * A locality the query names in full, more prominent than the row's own locality, whose centre
 * lies within reach of the row's locality centre (of the row when it has none): the row's
 * locality is then a neighbourhood of it ("West End" in Vancouver). Reach grows with prominence,
 * 1 km for the smallest places up to 7 km for the largest. -1 when none.
 */
function nearbyNamedLocality(view: IndexView, term: Term, e: number): number {
  if (!term.localities.length) return -1;
  const a = view.a;
  const own = a.entLocality[e]!;
  const ownImportance = own >= 0 ? a.entImportance[own]! : 0;
  const lng = own >= 0 ? a.entLng[own]! : a.entLng[e]!;
  const lat = own >= 0 ? a.entLat[own]! : a.entLat[e]!;
  const kx = 111.32 * Math.cos((lat * Math.PI) / 180);
  for (const l of term.localities) {
    if (a.entImportance[l]! <= ownImportance) continue;
    const reach = localityReachKm(a.entImportance[l]!);
    const dx = (a.entLng[l]! - lng) * kx;
    const dy = (a.entLat[l]! - lat) * 110.57;
    if (dx * dx + dy * dy <= reach * reach) return l;
  }
  return -1;
}

/** How far from a locality's centre its neighbourhoods may lie: 1 km to 7 km by prominence. */
export function localityReachKm(importance: number): number {
  const rel = Math.max(0, (importance - 0.35) / 0.65);
  return 1 + 6 * rel * rel;
}

/** (token id << 1 | fuzzy) of the first list token satisfying the term, or NONE. */
export function findIds(ids: Uint32Array, from: number, to: number, wanted: readonly number[]): number {
  for (const id of wanted) {
    const k = lowerBoundU32(ids, from, to, id);
    if (k < to && ids[k] === id) return id * 2;
  }
  return NONE;
}

export function findIn(ids: Uint32Array, from: number, to: number, term: Term): number {
  if (from >= to) return NONE;
  const exact = term.exact;
  for (let i = 0; i < exact.length; i++) {
    const id = exact[i]!;
    const k = lowerBoundU32(ids, from, to, id);
    if (k < to && ids[k] === id) return id * 2;
  }
  const ranges = term.ranges;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i]!;
    const k = lowerBoundU32(ids, from, to, range[0]);
    if (k < to && ids[k]! < range[1]) return ids[k]! * 2;
  }
  const fuzzy = term.fuzzy;
  for (let i = 0; i < fuzzy.length; i++) {
    const id = fuzzy[i]!;
    const k = lowerBoundU32(ids, from, to, id);
    if (k < to && ids[k] === id) return id * 2 + 1;
  }
  return NONE;
}
