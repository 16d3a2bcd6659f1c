import KDBush from 'kdbush';
import type { TaxonomyEntry } from '../corpus.ts';
import { INDEX_ARRAY_NAMES, L_LOCALITY, NO_REGION, type IndexArrays, type IndexMeta, type IndexSections } from './sections.ts';
import { nameTokens } from '../text.ts';
import { decodeStringTable, indexOfSorted, StringPool } from './strings.ts';

/**
 * The loaded index: the typed arrays as they are, the small string tables decoded to JS
 * strings, the two KD-trees reattached to their buffers, and row accessors.
 */
export class IndexView {
  readonly meta: IndexMeta;
  readonly a: IndexArrays;
  readonly pool: StringPool;
  readonly tokens: string[];
  readonly hnKeys: string[];
  readonly hnDisplay: string[];
  readonly postcodes: string[];
  readonly spPlKeys: string[];
  readonly spStKeys: string[];
  readonly kdReverse: KDBush;
  readonly kdPoi: KDBush;
  readonly entityCount: number;
  readonly addressCount: number;
  readonly regionIndex: Map<string, number>;
  readonly categoryIndex: Map<string, number>;
  readonly taxonomyById: Map<string, TaxonomyEntry>;
  /** Entity ids of every locality row. */
  readonly localityIds: Uint32Array;

  constructor(sections: IndexSections) {
    const missing = INDEX_ARRAY_NAMES.filter((name) => !sections.arrays[name]);
    if (missing.length) throw new Error(`geocoding index lacks sections: ${missing.join(', ')}`);
    this.meta = sections.meta;
    const a = (this.a = sections.arrays);
    this.entityCount = this.meta.entityCount;
    this.addressCount = this.meta.addressCount;
    if (a.entLayer.length !== this.entityCount || a.adLng.length !== this.addressCount) {
      throw new Error('geocoding index: column lengths disagree with the header');
    }
    this.pool = new StringPool(a.poolBlob, a.poolOffsets);
    this.tokens = decodeStringTable(a.tokBlob, a.tokOffsets);
    this.hnKeys = decodeStringTable(a.hnKeyBlob, a.hnKeyOffsets);
    this.hnDisplay = decodeStringTable(a.hnDisplayBlob, a.hnDisplayOffsets);
    this.postcodes = decodeStringTable(a.pcBlob, a.pcOffsets);
    this.spPlKeys = decodeStringTable(a.spPlKeyBlob, a.spPlKeyOffsets);
    this.spStKeys = decodeStringTable(a.spStKeyBlob, a.spStKeyOffsets);
    this.kdReverse = KDBush.from(ownBuffer(a.kdReverse));
    this.kdPoi = KDBush.from(ownBuffer(a.kdPoi));
    this.regionIndex = new Map(this.meta.regions.map((r, i) => [r, i]));
    this.categoryIndex = new Map(this.meta.categories.map((c, i) => [c, i]));
    this.taxonomyById = new Map(this.meta.taxonomy.map((t) => [t.id, t]));
    const localities: number[] = [];
    for (let e = 0; e < this.entityCount; e++) if (a.entLayer[e] === L_LOCALITY) localities.push(e);
    this.localityIds = Uint32Array.from(localities);
  }

  private readonly localityWords = new Map<number, Int32Array>();

  /** Token ids of a locality's display name, in order (-1 for a word missing from the dictionary). */
  localityNameIds(l: number): Int32Array {
    let ids = this.localityWords.get(l);
    if (!ids) {
      ids = Int32Array.from(nameTokens(this.str(this.a.entName[l]!)), (w) => indexOfSorted(this.tokens, w));
      this.localityWords.set(l, ids);
    }
    return ids;
  }

  str(id: number): string {
    return this.pool.get(id);
  }

  regionCode(e: number): string | null {
    const r = this.a.entRegion[e]!;
    return r === NO_REGION ? null : this.meta.regions[r] ?? null;
  }

  /** Language-keyed labels of an entity; undefined when it has none. */
  entityNames(e: number): Record<string, string> | undefined {
    const { entNamesOffsets: off, entNamesKeys: keys, entNamesValues: values } = this.a;
    const from = off[e]!;
    const to = off[e + 1]!;
    if (from === to) return undefined;
    const out: Record<string, string> = {};
    for (let k = from; k < to; k++) out[this.pool.get(keys[k]!)] = this.pool.get(values[k]!);
    return out;
  }

  cityOf(e: number): string | null {
    const c = this.a.entCity[e]!;
    return c < 0 ? null : this.pool.get(this.a.cityName[c]!);
  }

  category(e: number): string | null {
    return this.meta.categories[this.a.entCategory[e]!] ?? null;
  }
}

function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.slice().buffer;
}
