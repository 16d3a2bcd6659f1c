import { lowerBound } from './index/strings.ts';
import type { IndexView } from './index/view.ts';
import type { Term } from './terms.ts';

export type PostingSet = 'places' | 'streets';

/** Posting entries scanned for rows in the named localities once the cap is reached. */
const SCOPED_SCAN = 200_000;

/**
 * Candidate rows for a query: the union of the posting lists of its rarest terms. Every row a
 * query can match carries at least one of its own-name terms, so the rarest lists (up to `cap`
 * rows in all, always at least the rarest one, truncated to its most important rows) are
 * enough; the matcher then checks every term against each candidate.
 */
export class CandidateCollector {
  private readonly stamp: Uint32Array;
  private generation = 0;

  constructor(private readonly view: IndexView) {
    this.stamp = new Uint32Array(view.entityCount);
  }

  /**
   * `scope`: localities the query names; words skipped for being too common are still scanned
   * (up to SCOPED_SCAN entries) for rows in these localities.
   */
  collect(terms: readonly Term[], set: PostingSet, cap: number, scope: ReadonlySet<number> | null = null): number[] {
    const view = this.view;
    const offsets = set === 'places' ? view.a.plPostOffsets : view.a.stPostOffsets;
    const ids = set === 'places' ? view.a.plPostIds : view.a.stPostIds;
    const out: number[] = [];
    if (++this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    const gen = this.generation;
    const add = (e: number) => {
      if (this.stamp[e] !== gen) {
        this.stamp[e] = gen;
        out.push(e);
      }
    };

    const sized = terms
      .filter((t) => t.role !== 'city' && !t.optional)
      .map((t) => ({ t, size: this.size(t, set, offsets) }))
      .filter((x) => x.size > 0)
      .sort((x, y) => x.size - y.size);
    let total = 0;
    let k = 0;
    for (; k < sized.length; k++) {
      const { t, size } = sized[k]!;
      if (k > 0 && total + size > cap) break;
      const budget = cap - total;
      total += size;
      if (t.shortPrefix !== null) {
        for (const e of this.shortList(t.shortPrefix, set)) add(e);
        for (const id of t.exact) takeToken(id, Math.min(budget, view.meta.shortPrefixDepth));
        continue;
      }
      const tokenIds: number[] = [...t.exact, ...t.fuzzy];
      for (const [lo, hi] of t.ranges) for (let id = lo; id < hi; id++) tokenIds.push(id);
      const quota = size <= budget ? Infinity : Math.max(32, Math.floor(budget / Math.max(1, tokenIds.length)));
      for (const id of tokenIds) takeToken(id, quota);
    }
    if (scope) {
      // Strong words only: every street of a city has a street type.
      const locality = view.a.entLocality;
      let budget = SCOPED_SCAN;
      const limit = out.length + cap;
      for (; k < sized.length && budget > 0 && out.length < limit; k++) {
        const t = sized[k]!.t;
        if (t.shortPrefix !== null || t.weak) continue;
        const tokenIds: number[] = [...t.exact, ...t.fuzzy];
        for (const [lo, hi] of t.ranges) for (let id = lo; id < hi; id++) tokenIds.push(id);
        for (const id of tokenIds) {
          const from = offsets[id]!;
          const to = Math.min(offsets[id + 1]!, from + budget);
          budget -= to - from;
          for (let p = from; p < to && out.length < limit; p++) {
            const e = ids[p]!;
            if (scope.has(locality[e]!)) add(e);
          }
        }
      }
    }
    return out;

    function takeToken(token: number, quota: number) {
      const from = offsets[token]!;
      const to = Math.min(offsets[token + 1]!, from + quota);
      for (let k = from; k < to; k++) add(ids[k]!);
    }
  }

  private size(t: Term, set: PostingSet, offsets: Uint32Array): number {
    if (t.shortPrefix !== null) {
      let n = this.shortList(t.shortPrefix, set).length;
      for (const id of t.exact) n += Math.min(offsets[id + 1]! - offsets[id]!, this.view.meta.shortPrefixDepth);
      return n;
    }
    let n = 0;
    for (const id of t.exact) n += offsets[id + 1]! - offsets[id]!;
    for (const id of t.fuzzy) n += offsets[id + 1]! - offsets[id]!;
    for (const [lo, hi] of t.ranges) n += offsets[hi]! - offsets[lo]!;
    return n;
  }

  private shortList(prefix: string, set: PostingSet): Uint32Array {
    const a = this.view.a;
    const keys = set === 'places' ? this.view.spPlKeys : this.view.spStKeys;
    const offsets = set === 'places' ? a.spPlOffsets : a.spStOffsets;
    const ids = set === 'places' ? a.spPlIds : a.spStIds;
    const i = lowerBound(keys, prefix);
    if (i >= keys.length || keys[i] !== prefix) return new Uint32Array(0);
    return ids.subarray(offsets[i]!, offsets[i + 1]!);
  }
}
