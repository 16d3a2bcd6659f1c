import { sortUnique, tokenSetHash } from './index/dictionary.ts';
import type { IndexView } from './index/view.ts';
import { searchBound, type SearchBoundQuery } from './rank.ts';
import type { Term } from './terms.ts';

interface Ranked {
  score: number;
  entity: number;
}

/**
 * The `limit` best hits seen so far in answer order (score descending, then entity ascending),
 * to tell when a row can no longer enter the answer.
 */
export class BestHits {
  private readonly best: Ranked[] = [];
  constructor(private readonly limit: number) {}

  add(hit: Ranked): void {
    const best = this.best;
    let i = best.length;
    while (i > 0 && before(hit, best[i - 1]!)) i--;
    if (i >= this.limit) return;
    best.splice(i, 0, { score: hit.score, entity: hit.entity });
    if (best.length > this.limit) best.pop();
  }

  /** There are `limit` hits: excludes() can tell. */
  get full(): boolean {
    return this.limit > 0 && this.best.length >= this.limit;
  }

  /** A row of entity `e` scoring at most `bound` would rank after the `limit` best (false until there are that many). */
  excludes(bound: number, e: number): boolean {
    if (!this.full) return false;
    const last = this.best[this.limit - 1]!;
    return bound < last.score || (bound === last.score && e > last.entity);
  }
}

const before = (x: Ranked, y: Ranked) => x.score > y.score || (x.score === y.score && x.entity < y.entity);

/**
 * Verifies candidate rows in the order given, skipping those whose best reachable score
 * (searchBound) can no longer rank among the `limit` best found so far. Rows come in entity order,
 * which is importance order, so the best rows come early and most rows of a city or chain name
 * are never matched. `visit` verifies one row (`street`: it came from the street postings) and
 * returns its hit or null. Returns the hits in `rows` order, as verifying every row would.
 */
export function verifyBounded<T extends Ranked>(
  view: IndexView, terms: readonly Term[], limit: number, places: Uint32Array, streets: Uint32Array,
  visit: (e: number, street: boolean) => T | null,
): T[] {
  const query = boundQuery(view, terms);
  const best = new BestHits(limit);
  const hits: T[] = [];
  const each = (rows: Uint32Array, street: boolean) => {
    for (let i = 0; i < rows.length; i++) {
      const e = rows[i]!;
      if (best.full && best.excludes(searchBound(view, e, query), e)) continue;
      const hit = visit(e, street);
      if (hit) {
        hits.push(hit);
        best.add(hit);
      }
    }
  };
  each(places, false);
  each(streets, true);
  return hits;
}

/** Exact-name hashes enumerated for at most this many combinations of the words' tokens. */
const MAX_NAME_SETS = 256;

/** What bounds a search query's scores, from its terms alone. */
export function boundQuery(view: IndexView, terms: readonly Term[]): SearchBoundQuery {
  return {
    terms: terms.length,
    exactHashes: exactNameHashes(terms),
    context: terms.some((t) => t.role !== 'name' && (t.localities.length > 0 || [...t.exact, ...t.fuzzy].some((id) => isContextToken(view, id)))),
    region: terms.some((t) => t.role !== 'name' && t.region !== null),
  };
}

/**
 * tokenSetHash of every token set the query's words can match in a row's own names without a
 * typo (one token per word of a subset of the words): a row has an exact name only when one of
 * its name hashes is among them. null: too many sets to list (any row may).
 */
function exactNameHashes(terms: readonly Term[]): number[] | null {
  let sets: number[][] = [[]];
  for (const t of terms) {
    const ids = [...t.exact, ...(t.onStreets ?? [])];
    const next = [...sets];
    for (const set of sets) for (const id of ids) next.push([...set, id]);
    if (next.length > MAX_NAME_SETS) return null;
    sets = next;
  }
  return [...new Set(sets.filter((s) => s.length > 0).map((s) => tokenSetHash(sortUnique(s))))];
}

const contextTokens = new WeakMap<IndexView, Uint8Array>();

/** A token of some row's locality or display city name: a query word matching it may count as the row's city. */
function isContextToken(view: IndexView, id: number): boolean {
  let marks = contextTokens.get(view);
  if (!marks) {
    const a = view.a;
    marks = new Uint8Array(view.tokens.length);
    const seen = new Uint8Array(view.entityCount);
    const markNames = (l: number) => {
      if (seen[l]) return;
      seen[l] = 1;
      for (let k = a.entTokOffsets[l]!; k < a.entTokOffsets[l + 1]!; k++) marks![a.entTokIds[k]!] = 1;
    };
    // Once per index, a few ms: every locality rows are attached to.
    for (let e = 0; e < a.entLocality.length; e++) if (a.entLocality[e]! >= 0) markNames(a.entLocality[e]!);
    for (let k = 0; k < a.cityTokIds.length; k++) marks[a.cityTokIds[k]!] = 1;
    contextTokens.set(view, marks);
  }
  return marks[id] === 1;
}
