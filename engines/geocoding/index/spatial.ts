import KDBush from 'kdbush';
import { L_LOCALITY, L_POI } from './sections.ts';

const NODE_SIZE = 64;

/**
 * Reverse candidates ("nearest named places"): every address point, then every locality and
 * POI with a name (unnamed charging stations and the like only serve nearby).
 * Returns the KDBush data and revEntity (item - addressCount → entity id).
 */
export function buildReverseIndex(
  adLng: Float64Array, adLat: Float64Array,
  entLayer: Uint8Array, entLng: Float64Array, entLat: Float64Array,
  named: (entity: number) => boolean,
): { kdReverse: Uint8Array; revEntity: Uint32Array } {
  const entities: number[] = [];
  for (let e = 0; e < entLayer.length; e++) {
    if ((entLayer[e] === L_LOCALITY || entLayer[e] === L_POI) && named(e)) entities.push(e);
  }
  const index = new KDBush(adLng.length + entities.length, NODE_SIZE, Float64Array);
  for (let a = 0; a < adLng.length; a++) index.add(adLng[a]!, adLat[a]!);
  for (const e of entities) index.add(entLng[e]!, entLat[e]!);
  index.finish();
  return { kdReverse: new Uint8Array(index.data as ArrayBuffer), revEntity: Uint32Array.from(entities) };
}

/** POIs only (nearby, places nearby). */
export function buildPoiIndex(entLayer: Uint8Array, entLng: Float64Array, entLat: Float64Array): { kdPoi: Uint8Array; poiEntity: Uint32Array } {
  const pois: number[] = [];
  for (let e = 0; e < entLayer.length; e++) if (entLayer[e] === L_POI) pois.push(e);
  const index = new KDBush(pois.length, NODE_SIZE, Float64Array);
  for (const e of pois) index.add(entLng[e]!, entLat[e]!);
  index.finish();
  return { kdPoi: new Uint8Array(index.data as ArrayBuffer), poiEntity: Uint32Array.from(pois) };
}
