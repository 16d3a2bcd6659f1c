import type { IndexView } from './index/view.ts';
import { localityReachKm } from './match.ts';
import type { Term } from './terms.ts';

/**
 * Localities a query names in full, plus the smaller localities within their reach (their
 * neighbourhoods). Candidate generation scans the posting lists of words too common to take
 * whole for rows in these localities ("1st Ave Saskatoon": every 1st Avenue of the country is
 * too many, the ones in Saskatoon are not). null when the query names none.
 */
export function localityScope(view: IndexView, terms: readonly Term[]): Set<number> | null {
  const named = new Set<number>();
  for (const t of terms) for (const l of t.localities) named.add(l);
  if (!named.size) return null;
  const scope = new Set(named);
  for (const l of named) for (const n of neighbourhoods(view, l)) scope.add(n);
  return scope;
}

const cache = new WeakMap<IndexView, Map<number, Uint32Array>>();

/** Less prominent localities within a locality's reach (computed once per locality). */
function neighbourhoods(view: IndexView, l: number): Uint32Array {
  let byLocality = cache.get(view);
  if (!byLocality) cache.set(view, (byLocality = new Map()));
  const known = byLocality.get(l);
  if (known) return known;
  const a = view.a;
  const reach = localityReachKm(a.entImportance[l]!);
  const kx = 111.32 * Math.cos((a.entLat[l]! * Math.PI) / 180);
  const out: number[] = [];
  for (const other of view.localityIds) {
    if (other === l || a.entImportance[other]! >= a.entImportance[l]!) continue;
    const dx = (a.entLng[other]! - a.entLng[l]!) * kx;
    const dy = (a.entLat[other]! - a.entLat[l]!) * 110.57;
    if (dx * dx + dy * dy <= reach * reach) out.push(other);
  }
  const list = Uint32Array.from(out);
  byLocality.set(l, list);
  return list;
}
