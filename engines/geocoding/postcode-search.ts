import { bboxContains } from '../../lib/geo/bbox.ts';
import { prepareCivic } from './housenumber.ts';
import { indexOfSorted } from './index/strings.ts';
import type { IndexView } from './index/view.ts';
import { matchTerms } from './match.ts';
import type { Hit } from './results.ts';
import type { Term } from './terms.ts';
import type { ResultLayer } from './types.ts';
import type { BBox } from '../../lib/geo/bbox.ts';

export interface PostcodeQuery {
  postcode: string;
  housenumber?: string;
  layers: ReadonlySet<ResultLayer>;
  bbox?: BBox;
  region?: string;
  limit: number;
}

/** Address point ids carrying the postcode, nearest to the postcode's centroid first. */
export function postcodeAddresses(view: IndexView, postcode: string): Uint32Array {
  const row = indexOfSorted(view.postcodes, postcode);
  if (row < 0) return new Uint32Array(0);
  return view.a.pcAddrIds.subarray(view.a.pcAddrOffsets[row]!, view.a.pcAddrOffsets[row + 1]!);
}

/**
 * A postal code alone (optionally with a civic number): its address points, exact, nearest to
 * the code's centroid first; [] when no row carries it.
 */
export function postcodeSearch(view: IndexView, q: PostcodeQuery): Hit[] {
  if (!q.layers.has('address')) return [];
  if (q.bbox && (q.bbox.minLon > q.bbox.maxLon || q.bbox.minLat > q.bbox.maxLat)) return [];
  const ids = postcodeAddresses(view, q.postcode);
  const civic = q.housenumber !== undefined ? prepareCivic(view, q.housenumber, undefined, undefined) : null;
  const a = view.a;
  const out: Hit[] = [];
  for (let k = 0; k < ids.length && out.length < q.limit; k++) {
    const p = ids[k]!;
    if (civic && !(a.adHn[p]! >= civic.lo && a.adHn[p]! < civic.hi)) continue;
    const street = a.adStreet[p]!;
    const region = view.regionCode(street);
    if (q.region !== undefined && region !== null && region !== q.region) continue;
    const lng = a.adLng[p]!;
    const lat = a.adLat[p]!;
    if (q.bbox && !bboxContains(q.bbox, lng, lat)) continue;
    out.push({
      entity: street,
      address: p,
      // Rank order is the nearest-to-centroid order.
      score: 10 - k / Math.max(1, ids.length),
      reasons: q.region !== undefined && region === null ? ['region_not_verified'] : [],
      fallback: false,
    });
  }
  return out;
}

/** The words only name the postcode's own place ("V6B 1A1 Vancouver BC"): answer as a postcode. */
export function wordsDescribePostcodeArea(view: IndexView, terms: readonly Term[], postcode: string): boolean {
  const ids = postcodeAddresses(view, postcode);
  if (!ids.length) return false;
  const street = view.a.adStreet[ids[0]!]!;
  const m = matchTerms(view, terms.map((t) => ({ ...t, role: 'city' as const })), street);
  return m.unmatched === 0 && m.region !== 'differs' && m.fuzzy === 0;
}
