import type { CorpusPlace } from '../corpus.ts';
import { buildDictionary, placeTexts, tokenIdsOf, tokenSetHash, type Dictionary } from './dictionary.ts';
import { CsrBuilder } from './growable.ts';
import { LAYER_CODES, NO_CATEGORY, NO_REGION, type IndexArrays } from './sections.ts';
import type { StringPoolBuilder } from './strings.ts';
import { nameTokens } from '../text.ts';

type EntityArrays = Pick<IndexArrays,
  | 'entLayer' | 'entLng' | 'entLat' | 'entImportance' | 'entName' | 'entNamesOffsets' | 'entNamesKeys' | 'entNamesValues'
  | 'entTokOffsets' | 'entTokIds' | 'entNameTokCount' | 'entNameHashOffsets' | 'entNameHashes' | 'entRegion' | 'entLocality'
  | 'entCity' | 'entCategory' | 'entHousenumber' | 'entStreet' | 'entPostcode' | 'entSource' | 'entSourceId' | 'entId'
  | 'cityName' | 'cityTokOffsets' | 'cityTokIds'>;

export interface EntityBuild {
  arrays: EntityArrays;
  dict: Dictionary;
}

export interface EntityContext {
  places: readonly CorpusPlace[];
  /** entity id → index into places. */
  order: Uint32Array;
  /** index into places → entity id. */
  entityOf: Int32Array;
  importance: Float32Array;
  pool: StringPoolBuilder;
  sourceIndex: Map<string, number>;
  regionIndex: Map<string, number>;
  categoryIndex: Map<string, number>;
}

/** Entity columns (one row per place, in entity order) plus the display-city table. */
export function buildEntities(ctx: EntityContext): EntityBuild {
  const { places, order, entityOf, pool } = ctx;
  const n = places.length;
  const dict = buildDictionary(places);

  const a = {
    entLayer: new Uint8Array(n),
    entLng: new Float64Array(n),
    entLat: new Float64Array(n),
    entImportance: new Float32Array(n),
    entName: new Uint32Array(n),
    entNameTokCount: new Uint8Array(n),
    entRegion: new Uint8Array(n),
    entLocality: new Int32Array(n),
    entCity: new Int32Array(n),
    entCategory: new Uint16Array(n),
    entHousenumber: new Uint32Array(n),
    entStreet: new Uint32Array(n),
    entPostcode: new Uint32Array(n),
    entSource: new Uint8Array(n),
    entSourceId: new Uint32Array(n),
    entId: new Uint32Array(n),
  };
  const names = new CsrBuilder(n);
  const nameValues: number[] = [];
  const toks = new CsrBuilder(n);
  const hashes = new CsrBuilder(n);
  const cityRow = new Map<string, number>();
  const cities: string[] = [];

  for (let e = 0; e < n; e++) {
    const p = places[order[e]!]!;
    a.entLayer[e] = LAYER_CODES.indexOf(p.layer);
    a.entLng[e] = p.lng;
    a.entLat[e] = p.lat;
    a.entImportance[e] = ctx.importance[order[e]!]!;
    a.entName[e] = pool.intern(p.name ?? '');
    a.entRegion[e] = p.region ? ctx.regionIndex.get(p.region) ?? NO_REGION : NO_REGION;
    a.entLocality[e] = p.locality === null ? -1 : entityOf[p.locality]!;
    if (p.city) {
      let c = cityRow.get(p.city);
      if (c === undefined) {
        c = cities.length;
        cities.push(p.city);
        cityRow.set(p.city, c);
      }
      a.entCity[e] = c;
    } else {
      a.entCity[e] = -1;
    }
    a.entCategory[e] = p.category ? ctx.categoryIndex.get(p.category) ?? NO_CATEGORY : NO_CATEGORY;
    a.entHousenumber[e] = pool.intern(p.housenumber ?? '');
    a.entStreet[e] = pool.intern(p.street ?? '');
    a.entPostcode[e] = pool.intern(p.postcode ?? '');
    a.entSource[e] = ctx.sourceIndex.get(p.source)!;
    a.entSourceId[e] = pool.add(p.sourceId);
    a.entId[e] = pool.add(p.id);

    for (const [key, value] of Object.entries(p.names)) {
      if (!value) continue;
      names.push(pool.intern(key));
      nameValues.push(pool.intern(value));
    }
    names.row();

    const all = new Set<number>();
    const rowHashes = new Set<number>();
    for (const text of placeTexts(p)) {
      const ids = tokenIdsOf(text, dict);
      for (const id of ids) all.add(id);
      if (ids.length) rowHashes.add(tokenSetHash(ids));
    }
    for (const id of [...all].sort((x, y) => x - y)) toks.push(id);
    toks.row();
    for (const h of rowHashes) hashes.push(h);
    hashes.row();
    const display = p.name || Object.values(p.names)[0] || '';
    a.entNameTokCount[e] = Math.min(255, new Set(nameTokens(display)).size);
  }

  const namesCsr = names.finish();
  const tokCsr = toks.finish();
  const hashCsr = hashes.finish();
  const cityToks = new CsrBuilder(cities.length);
  const cityName = new Uint32Array(cities.length);
  cities.forEach((c, i) => {
    cityName[i] = pool.intern(c);
    for (const id of tokenIdsOf(c, dict)) cityToks.push(id);
    cityToks.row();
  });
  const cityCsr = cityToks.finish();

  return {
    dict,
    arrays: {
      ...a,
      entNamesOffsets: namesCsr.offsets,
      entNamesKeys: namesCsr.ids,
      entNamesValues: Uint32Array.from(nameValues),
      entTokOffsets: tokCsr.offsets,
      entTokIds: tokCsr.ids,
      entNameHashOffsets: hashCsr.offsets,
      entNameHashes: hashCsr.ids,
      cityName,
      cityTokOffsets: cityCsr.offsets,
      cityTokIds: cityCsr.ids,
    },
  };
}
