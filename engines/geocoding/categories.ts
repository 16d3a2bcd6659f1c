import { fold } from './text/fold.ts';
import type { TaxonomyEntry } from './corpus.ts';
import type { CategoryResolution } from './types.ts';

/** Case, accents, hyphens, underscores and spaces ignored: "Fast-Food" = "fast_food" = "fastfood". */
function categoryKey(s: string): string {
  return fold(s.replace(/_/g, ' ')).replace(/ /g, '');
}

/**
 * Category tokens → taxonomy ids. A token may be a full id (`health.pharmacy`), an id's second
 * part (`pharmacy`), an English or French display name or alias (`épicerie` → shop.supermarket),
 * a group (`health` → every health id), or a plain plural of any of those.
 */
export class CategoryResolver {
  /** Tiers tried in order: ids; names and id second parts; aliases; groups. */
  private readonly tiers: Array<Map<string, string[]>> = [new Map(), new Map(), new Map(), new Map()];

  constructor(taxonomy: readonly TaxonomyEntry[], categories: readonly string[]) {
    const add = (tier: number, text: string, id: string) => {
      const key = categoryKey(text);
      if (!key) return;
      const map = this.tiers[tier]!;
      const list = map.get(key);
      if (!list) map.set(key, [id]);
      else if (!list.includes(id)) list.push(id);
    };
    for (const id of categories) {
      const dot = id.indexOf('.');
      add(0, id, id);
      add(1, id.slice(dot + 1), id);
      add(3, dot > 0 ? id.slice(0, dot) : id, id);
    }
    for (const t of taxonomy) {
      add(1, t.names.en, t.id);
      add(1, t.names.fr, t.id);
      for (const alias of t.aliases) add(2, alias, t.id);
    }
  }

  resolveToken(token: string): string[] | undefined {
    const key = categoryKey(token);
    if (!key) return undefined;
    for (const candidate of [key, ...singulars(key)]) {
      for (const tier of this.tiers) {
        const hit = tier.get(candidate);
        if (hit) return hit;
      }
    }
    return undefined;
  }

  resolve(tokens: readonly string[]): CategoryResolution {
    const ids: string[] = [];
    for (const token of tokens) {
      const hit = this.resolveToken(token);
      if (!hit) return { ok: false, unknownToken: token };
      for (const id of hit) if (!ids.includes(id)) ids.push(id);
    }
    return { ok: true, ids };
  }
}

/** English and French plural endings: pharmacies → pharmacy/pharmacie, hotels → hotel, bureaux → bureau. */
function singulars(key: string): string[] {
  const out: string[] = [];
  if (key.endsWith('ies')) out.push(`${key.slice(0, -3)}y`);
  if (key.endsWith('es')) out.push(key.slice(0, -2));
  if (key.endsWith('s') || key.endsWith('x')) out.push(key.slice(0, -1));
  return out;
}
