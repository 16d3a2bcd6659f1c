import { tokenize } from '../geocoding/text/fold.ts';

/**
 * Whole-token index of names: every query token must be a token of the name, the last one may
 * be a prefix of one. Tokens are folded (case, accents) as the geocoder folds them.
 */
export class NameIndex {
  private readonly postings = new Map<string, number[]>();
  /** Distinct tokens, sorted, for prefix ranges. */
  private readonly vocabulary: string[];
  private readonly tokenCounts: Uint16Array;

  constructor(names: readonly string[]) {
    this.tokenCounts = new Uint16Array(names.length);
    names.forEach((name, index) => {
      const tokens = new Set(tokenize(name));
      this.tokenCounts[index] = tokens.size;
      for (const token of tokens) {
        const list = this.postings.get(token);
        if (list) list.push(index);
        else this.postings.set(token, [index]);
      }
    });
    this.vocabulary = [...this.postings.keys()].sort();
  }

  /** Matching entries and their score in (0.4, 0.9]: more of the name matched and a whole last token score higher. */
  match(query: string): Map<number, number> {
    const tokens = [...new Set(tokenize(query))];
    const found = new Map<number, number>();
    if (tokens.length === 0) return found;
    const last = tokens.pop()!;
    let candidates: Set<number> | null = null;
    for (const token of tokens) {
      const list = this.postings.get(token) ?? [];
      candidates = new Set(candidates ? list.filter((i) => candidates!.has(i)) : list);
      if (candidates.size === 0) return found;
    }
    const whole = new Set(this.postings.get(last) ?? []);
    for (const index of this.withPrefix(last)) {
      if (candidates && !candidates.has(index)) continue;
      const coverage = Math.min(1, (tokens.length + 1) / Math.max(1, this.tokenCounts[index]!));
      const score = 0.4 + 0.4 * coverage + (whole.has(index) ? 0.1 : 0);
      found.set(index, Math.round(score * 1000) / 1000);
    }
    return found;
  }

  private withPrefix(prefix: string): Set<number> {
    const out = new Set<number>();
    let lo = 0;
    let hi = this.vocabulary.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.vocabulary[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.vocabulary.length && this.vocabulary[i]!.startsWith(prefix); i++) {
      for (const index of this.postings.get(this.vocabulary[i]!)!) out.add(index);
    }
    return out;
  }
}
