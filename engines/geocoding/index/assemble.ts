import type { Corpus } from '../corpus.ts';
import { pickName } from '../names.ts';
import { buildAddresses } from './addresses.ts';
import { buildEntities } from './entities.ts';
import { importanceScores } from './importance.ts';
import { buildPostings, buildShortPrefixes } from './postings.ts';
import {
  INDEX_FORMAT_VERSION, L_POI, L_STREET,
  type IndexArrays, type IndexMeta, type IndexSections,
} from './sections.ts';
import { buildPoiIndex, buildReverseIndex } from './spatial.ts';
import { encodeStringTable, StringPoolBuilder } from './strings.ts';

export const SHORT_PREFIX_DEPTH = 64;

/** Corpus → everything the query side needs, as typed arrays and string tables. */
export function assembleIndex(corpus: Corpus): IndexSections {
  const places = corpus.places;
  const n = places.length;
  checkCorpus(corpus);

  const importance = importanceScores(places);
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => importance[b]! - importance[a]! || a - b);
  const entityOf = new Int32Array(n);
  order.forEach((p, e) => (entityOf[p] = e));

  const sources = [...corpus.sources];
  for (const p of places) if (!sources.includes(p.source)) sources.push(p.source);
  if (sources.length > 255) throw new Error('more than 255 sources');
  const sourceIndex = new Map(sources.map((s, i) => [s, i]));
  const sourceMap = Uint8Array.from(corpus.sources.map((s) => sourceIndex.get(s)!));

  const regions = [...new Set(places.map((p) => p.region).filter((r): r is string => !!r))].sort();
  if (regions.length > 254) throw new Error('more than 254 regions');
  const regionIndex = new Map(regions.map((r, i) => [r, i]));

  const categories = corpus.taxonomy.map((t) => t.id);
  for (const p of places) if (p.category && !categories.includes(p.category)) categories.push(p.category);
  const categoryIndex = new Map(categories.map((c, i) => [c, i]));

  const pool = new StringPoolBuilder();
  const { arrays: ent, dict } = buildEntities({ places, order, entityOf, importance, pool, sourceIndex, regionIndex, categoryIndex });
  const tokenCount = dict.tokens.length;
  const isStreet = (e: number) => ent.entLayer[e] === L_STREET;
  const isPlace = (e: number) => ent.entLayer[e] !== L_STREET;
  const pl = buildPostings(tokenCount, ent.entTokOffsets, ent.entTokIds, isPlace);
  const st = buildPostings(tokenCount, ent.entTokOffsets, ent.entTokIds, isStreet);
  const spPl = buildShortPrefixes(dict.tokens, ent.entTokOffsets, ent.entTokIds, isPlace, SHORT_PREFIX_DEPTH);
  const spSt = buildShortPrefixes(dict.tokens, ent.entTokOffsets, ent.entTokIds, isStreet, SHORT_PREFIX_DEPTH);

  const addr = buildAddresses(corpus.addresses, places, entityOf, pool, sourceMap);
  const named = (e: number) => {
    const p = places[order[e]!]!;
    return p.named !== false && pickName(p.names, 'en', p.name) !== '';
  };
  const rev = buildReverseIndex(addr.adLng, addr.adLat, ent.entLayer, ent.entLng, ent.entLat, named);
  const poi = buildPoiIndex(ent.entLayer, ent.entLng, ent.entLat);

  const poiIds: number[] = [];
  for (let e = 0; e < n; e++) if (ent.entLayer[e] === L_POI) poiIds.push(e);
  const idText = (e: number) => places[order[e]!]!.id;
  poiIds.sort((x, y) => (idText(x) < idText(y) ? -1 : idText(x) > idText(y) ? 1 : 0));

  const regionEntity: Record<string, number> = {};
  for (let e = 0; e < n; e++) {
    const p = places[order[e]!]!;
    if (p.layer === 'region' && p.region && regionEntity[p.region] === undefined) regionEntity[p.region] = e;
  }

  const tok = encodeStringTable(dict.tokens);
  const stringPool = pool.finish();
  const arrays: IndexArrays = {
    poolBlob: stringPool.blob,
    poolOffsets: stringPool.offsets,
    tokBlob: tok.blob,
    tokOffsets: tok.offsets,
    ...ent,
    plPostOffsets: pl.offsets,
    plPostIds: pl.ids,
    stPostOffsets: st.offsets,
    stPostIds: st.ids,
    ...addr,
    spPlKeyBlob: spPl.keyBlob,
    spPlKeyOffsets: spPl.keyOffsets,
    spPlOffsets: spPl.offsets,
    spPlIds: spPl.ids,
    spStKeyBlob: spSt.keyBlob,
    spStKeyOffsets: spSt.keyOffsets,
    spStOffsets: spSt.offsets,
    spStIds: spSt.ids,
    ...rev,
    ...poi,
    poiByIdOrder: Uint32Array.from(poiIds),
  };
  const meta: IndexMeta = {
    formatVersion: INDEX_FORMAT_VERSION,
    entityCount: n,
    addressCount: corpus.addresses.count,
    tokenCount,
    sources,
    attribution: corpus.attribution,
    taxonomy: [...corpus.taxonomy],
    categories,
    regions,
    regionEntity,
    shortPrefixDepth: SHORT_PREFIX_DEPTH,
  };
  return { meta, arrays };
}

function checkCorpus(corpus: Corpus): void {
  const n = corpus.places.length;
  corpus.places.forEach((p, i) => {
    if (!Number.isFinite(p.lng) || !Number.isFinite(p.lat)) throw new Error(`place ${p.id}: coordinates not finite`);
    if (p.locality !== null && (p.locality < 0 || p.locality >= n || corpus.places[p.locality]!.layer !== 'locality')) {
      throw new Error(`place ${p.id} (${i}): locality ${p.locality} is not a locality row`);
    }
  });
  const a = corpus.addresses;
  for (const [name, len] of [
    ['lng', a.lng.length], ['lat', a.lat.length], ['street', a.street.length], ['housenumber', a.housenumber.length],
    ['unit', a.unit.length], ['postcode', a.postcode.length], ['source', a.source.length], ['sourceId', a.sourceId.length],
  ] as const) {
    if (len !== a.count) throw new Error(`addresses.${name} has ${len} rows, count is ${a.count}`);
  }
}
