import { lowerBoundString } from './index/strings.ts';
import { L_STREET } from './index/sections.ts';
import type { IndexView } from './index/view.ts';
import { findIds, findIn } from './match.ts';
import { lowerBoundU32 } from './sorted.ts';
import type { Term } from './terms.ts';

export type PostingSet = 'places' | 'streets';

/** Posting entries scanned for rows in the named localities once the cap is reached. */
const SCOPED_SCAN = 200_000;
/** Rows of a required word's posting list checked for the other required words. */
const REQUIRED_SCAN = 200_000;
/** Most important rows of each other word added beside the rows having every required word. */
const CONTEXT_ROWS = 16;
/** Rows outside the localities the query names taken from the rarest required word's list. */
const OUTSIDE_SCOPE = 500;
/** Rows having every required word taken when the query names no locality (most important first). */
const COMPLETE_ROWS = 2000;
/** A context word's list is probed for the driver's rows when it is this many times longer (binary searches). */
const PROBE_FACTOR = 8;

/**
 * Candidate rows for a query: first the rows having every required word (withEveryRequired), so
 * that "<number> Main Street <city>" does not verify every Main Street of the country; when no
 * row has them all, the union of the posting lists of its rarest terms. Every row a
 * query can match carries at least one of its own-name terms, so the rarest lists (up to `cap`
 * rows in all, always at least the rarest one, truncated to its most important rows) are
 * enough; the matcher then checks every term against each candidate.
 */
export class CandidateCollector {
  private readonly stamp: Uint32Array;
  private generation = 0;
  /** The last collect found rows having every required word (no partial matches were added). */
  complete = false;

  /** scopeStamp[l] === scopeGeneration: locality l is in the current query's scope (no Set lookups per posting). */
  private readonly scopeStamp: Uint32Array;
  private scopeGeneration = 0;

  /** `probeFactor`: how much longer than the driver's list a context word's list is before it is probed, not read (tests compare with Infinity). */
  constructor(private readonly view: IndexView, private readonly probeFactor = PROBE_FACTOR) {
    this.stamp = new Uint32Array(view.entityCount);
    this.scopeStamp = new Uint32Array(view.entityCount);
  }

  /** Marks the scope's localities; the returned generation identifies them in scopeStamp (0: no scope). */
  private markScope(scope: ReadonlySet<number> | null): number {
    if (scope === null) return 0;
    if (++this.scopeGeneration === 0xffffffff) {
      this.scopeStamp.fill(0);
      this.scopeGeneration = 1;
    }
    for (const l of scope) this.scopeStamp[l] = this.scopeGeneration;
    return this.scopeGeneration;
  }

  /**
   * `scope`: localities the query names; words skipped for being too common are still scanned
   * (up to SCOPED_SCAN entries) for rows in these localities. `partial` false: when no row has
   * every required word, only the most important rows of each word (the named city), not the
   * union (the other posting set already has complete matches).
   */
  collect(terms: readonly Term[], set: PostingSet, cap: number, scope: ReadonlySet<number> | null = null, partial = true): number[] {
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
    this.complete = this.withEveryRequired(terms, set, offsets, ids, cap, scope, out, gen);
    if (this.complete) return out;
    if (!partial) {
      this.addContextRows(terms, null, offsets, ids, out, gen);
      return out;
    }

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
      const scopeStamp = this.scopeStamp;
      const scopeGen = this.markScope(scope);
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
            const l = locality[e]!;
            if (l >= 0 && scopeStamp[l] === scopeGen) add(e);
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

  /**
   * Rows having every required word in their own names (words that are no street type, city,
   * province or country word): the rarest such word's list is scanned (most important rows
   * first, rows in the named localities always) and each row checked for the others. The most
   * important rows of the other words join them (the named city itself). False, with `out`
   * untouched, when the query has a single word, none is required or no row has them all: the
   * caller then takes the union of the rarest lists (rows matching part of the query).
   */
  private withEveryRequired(
    terms: readonly Term[], set: PostingSet, offsets: Uint32Array, ids: Uint32Array,
    cap: number, scope: ReadonlySet<number> | null, out: number[], gen: number,
  ): boolean {
    const required: Term[] = [];
    for (const t of terms) {
      if (t.optional || t.weak || t.role === 'city' || t.region !== null || t.localities.length) continue;
      if (!t.exact.length && !t.fuzzy.length && !t.ranges.length) continue;
      required.push(t);
    }
    if (terms.filter((t) => !t.optional).length < 2) return false;
    if (!required.length) {
      const cityWords = terms.filter((t) => !t.optional && !t.weak && t.role !== 'city' && t.region === null && t.localities.length);
      if (terms.every((t) => t.optional || t.region !== null || cityWords.includes(t))) {
        // Only city words ("Saint-Rémi", "North York"): rows having them all.
        required.push(...cityWords);
      } else if (cityWords.length >= 2) {
        // A street named after a city, then the city ("Chemin Perth Montréal"): the last one is the city.
        required.push(...cityWords.slice(0, -1));
      }
    }
    let driver: Term | null = null;
    let driverSize = Infinity;
    for (const t of required) {
      if (t.shortPrefix !== null) continue;
      const size = this.size(t, set, offsets);
      if (size < driverSize) {
        driver = t;
        driverSize = size;
      }
    }
    if (driver === null || driverSize === 0) return false;
    const a = this.view.a;
    const tokOffsets = a.entTokOffsets;
    const tokIds = a.entTokIds;
    const locality = a.entLocality;
    const layer = a.entLayer;
    const stamp = this.stamp;
    const scopeStamp = this.scopeStamp;
    const scopeGen = this.markScope(scope);
    let budget = REQUIRED_SCAN;
    let outside = 0;
    // Outside the named localities a row misses the city word: only the most important few.
    const outsideCap = Math.min(cap, scope !== null ? OUTSIDE_SCOPE : COMPLETE_ROWS);
    // The driver's rows (capped outside the named localities), then the rows of the words that
    // may also be context (a city's name: "Toronto Park") having every required word.
    const lists: Array<{ t: Term; capped: boolean }> = [{ t: driver, capped: true }];
    for (const t of terms) {
      if (!t.optional && !t.weak && t.shortPrefix === null && !required.includes(t)) lists.push({ t, capped: false });
    }
    const hasEveryRequired = (e: number, listTerm: Term): boolean => {
      const ownFrom = tokOffsets[e]!;
      const ownTo = tokOffsets[e + 1]!;
      for (let r = 0; r < required.length; r++) {
        const t = required[r]!;
        if (t === listTerm) continue;
        if (findIn(tokIds, ownFrom, ownTo, t) >= 0) continue;
        if (t.onStreets && layer[e] === L_STREET && findIds(tokIds, ownFrom, ownTo, t.onStreets) >= 0) continue;
        return false;
      }
      return true;
    };
    // Every row having all required words is in the driver's list when that is one token's list
    // (no typo or street-type alternative): a context word's long list is then probed for those
    // rows instead of read whole ("Rue Lajoie Saint-Éphrem-de-Beauce": a few rows, not all of "saint").
    const driverRows = driver.exact.length + driver.fuzzy.length === 1 && !driver.ranges.length && !driver.onStreets
      ? ids.subarray(offsets[driver.exact[0] ?? driver.fuzzy[0]!]!, offsets[(driver.exact[0] ?? driver.fuzzy[0]!) + 1]!)
      : null;
    for (const { t: listTerm, capped } of lists) {
      const tokenIds: number[] = [...listTerm.exact, ...listTerm.fuzzy];
      for (const [lo, hi] of listTerm.ranges) for (let id = lo; id < hi; id++) tokenIds.push(id);
      for (const id of tokenIds) {
        if (budget <= 0) break;
        const from = offsets[id]!;
        const to = Math.min(offsets[id + 1]!, from + budget);
        budget -= to - from;
        if (!capped && driverRows !== null && driverRows.length * this.probeFactor < to - from) {
          // The same rows, in the same (ascending) order, as reading [from, to) would find.
          let at = from;
          for (let j = 0; j < driverRows.length && at < to; j++) {
            const e = driverRows[j]!;
            at = lowerBoundU32(ids, at, to, e);
            if (at >= to || ids[at] !== e || stamp[e] === gen || !hasEveryRequired(e, listTerm)) continue;
            stamp[e] = gen;
            out.push(e);
            const l = locality[e]!;
            if (!(scopeGen !== 0 && l >= 0 && scopeStamp[l] === scopeGen)) outside++;
          }
          continue;
        }
        for (let p = from; p < to; p++) {
          const e = ids[p]!;
          const l = locality[e]!;
          const inScope = scopeGen !== 0 && l >= 0 && scopeStamp[l] === scopeGen;
          if (capped && !inScope && outside >= outsideCap) {
            if (scope === null) break;
            continue;
          }
          // After the scope test: most rows of a common word lie outside the named localities.
          if (stamp[e] === gen || !hasEveryRequired(e, listTerm)) continue;
          stamp[e] = gen;
          out.push(e);
          if (!inScope) outside++;
        }
      }
    }
    if (!out.length) return false;
    this.addContextRows(terms, driver, offsets, ids, out, gen);
    return true;
  }

  private addContextRows(terms: readonly Term[], driver: Term | null, offsets: Uint32Array, ids: Uint32Array, out: number[], gen: number): void {
    const stamp = this.stamp;
    for (const t of terms) {
      if (t.optional || t.weak || t === driver || t.shortPrefix !== null) continue;
      const other: number[] = [...t.exact, ...t.fuzzy];
      for (const [lo, hi] of t.ranges) if (hi - lo <= CONTEXT_ROWS) for (let id = lo; id < hi; id++) other.push(id);
      for (const id of other) {
        const to = Math.min(offsets[id + 1]!, offsets[id]! + CONTEXT_ROWS);
        for (let p = offsets[id]!; p < to; p++) {
          const e = ids[p]!;
          if (stamp[e] !== gen) {
            stamp[e] = gen;
            out.push(e);
          }
        }
      }
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
    const i = lowerBoundString(keys, prefix);
    if (i >= keys.length || keys[i] !== prefix) return new Uint32Array(0);
    return ids.subarray(offsets[i]!, offsets[i + 1]!);
  }
}
