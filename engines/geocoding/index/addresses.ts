import type { CorpusAddresses, CorpusPlace } from '../corpus.ts';
import { civicKey } from '../text/fold.ts';
import { encodeStringTable, type StringPoolBuilder } from './strings.ts';
import type { IndexArrays } from './sections.ts';

type AddressArrays = Pick<IndexArrays,
  | 'adLng' | 'adLat' | 'adStreet' | 'adHn' | 'adUnit' | 'adPostcode' | 'adSource' | 'adSourceId'
  | 'hnKeyBlob' | 'hnKeyOffsets' | 'hnDisplayBlob' | 'hnDisplayOffsets'
  | 'pcBlob' | 'pcOffsets' | 'pcLng' | 'pcLat' | 'pcAddrOffsets' | 'pcAddrIds'
  | 'entAddrStart' | 'entAddrCount'>;

/**
 * Address columns grouped by street entity (a stable counting sort, so the corpus order within
 * a street survives), the house-number table and the postcode table.
 */
export function buildAddresses(
  addresses: CorpusAddresses,
  places: readonly CorpusPlace[],
  entityOf: Int32Array,
  pool: StringPoolBuilder,
  /** corpus source index → meta.sources index. */
  sourceMap: Uint8Array,
): AddressArrays {
  const m = addresses.count;
  const n = places.length;
  const streetEntity = new Uint32Array(m);
  const entAddrCount = new Uint32Array(n);
  for (let i = 0; i < m; i++) {
    const s = addresses.street[i]!;
    const place = places[s];
    if (!place || place.layer !== 'street') throw new Error(`address ${i}: street ${s} is not a street row`);
    const e = entityOf[s]!;
    streetEntity[i] = e;
    entAddrCount[e]! += 1;
  }
  const entAddrStart = new Uint32Array(n);
  for (let e = 1; e < n; e++) entAddrStart[e] = entAddrStart[e - 1]! + entAddrCount[e - 1]!;
  const fill = entAddrStart.slice();
  const perm = new Uint32Array(m);
  for (let i = 0; i < m; i++) perm[fill[streetEntity[i]!]!++] = i;

  // One hash lookup per point: provisional ids first, table rows after sorting.
  const hnTemp = new Map<string, number>();
  const pcTemp = new Map<string, number>();
  const hnOf = new Uint32Array(m);
  const pcOf = new Uint32Array(m);
  for (let i = 0; i < m; i++) {
    const hn = addresses.housenumber[i]!;
    let h = hnTemp.get(hn);
    if (h === undefined) hnTemp.set(hn, (h = hnTemp.size));
    hnOf[i] = h;
    const pc = addresses.postcode[i]!;
    if (pc) {
      let c = pcTemp.get(pc);
      if (c === undefined) pcTemp.set(pc, (c = pcTemp.size));
      pcOf[i] = c + 1;
    }
  }
  // House numbers: rows sorted by (key, display) so equal keys are one contiguous range.
  const hnRows = [...hnTemp.keys()].map((display, temp) => ({ display, key: civicKey(display), temp }));
  hnRows.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.display < y.display ? -1 : x.display > y.display ? 1 : 0));
  const hnRow = new Uint32Array(hnRows.length);
  hnRows.forEach((r, i) => (hnRow[r.temp] = i));
  const postcodes = [...pcTemp.keys()].sort();
  const pcRow = new Uint32Array(postcodes.length + 1);
  const pcTempList = [...pcTemp.keys()];
  const sortedIndex = new Map(postcodes.map((p, i) => [p, i]));
  pcTempList.forEach((p, t) => (pcRow[t + 1] = sortedIndex.get(p)! + 1));

  const adLng = new Float64Array(m);
  const adLat = new Float64Array(m);
  const adStreet = new Uint32Array(m);
  const adHn = new Uint32Array(m);
  const adUnit = new Uint32Array(m);
  const adPostcode = new Uint32Array(m);
  const adSource = new Uint8Array(m);
  const adSourceId = new Uint32Array(m);
  for (let a = 0; a < m; a++) {
    const i = perm[a]!;
    adLng[a] = addresses.lng[i]!;
    adLat[a] = addresses.lat[i]!;
    adStreet[a] = streetEntity[i]!;
    adHn[a] = hnRow[hnOf[i]!]!;
    adUnit[a] = addresses.unit[i] ? pool.intern(addresses.unit[i]!) : 0;
    adPostcode[a] = pcRow[pcOf[i]!]!;
    adSource[a] = sourceMap[addresses.source[i]!]!;
    adSourceId[a] = pool.add(addresses.sourceId[i]!);
  }

  const pc = buildPostcodeTable(postcodes.length, adPostcode, adLng, adLat);
  const hnKeys = encodeStringTable(hnRows.map((r) => r.key));
  const hnDisplay = encodeStringTable(hnRows.map((r) => r.display));
  const pcTable = encodeStringTable(postcodes);
  return {
    adLng, adLat, adStreet, adHn, adUnit, adPostcode, adSource, adSourceId,
    hnKeyBlob: hnKeys.blob, hnKeyOffsets: hnKeys.offsets,
    hnDisplayBlob: hnDisplay.blob, hnDisplayOffsets: hnDisplay.offsets,
    pcBlob: pcTable.blob, pcOffsets: pcTable.offsets,
    ...pc,
    entAddrStart, entAddrCount,
  };
}

/** Per postcode: centroid of its address points and their ids, nearest to the centroid first. */
function buildPostcodeTable(count: number, adPostcode: Uint32Array, lng: Float64Array, lat: Float64Array) {
  const pcLng = new Float64Array(count);
  const pcLat = new Float64Array(count);
  const pcAddrOffsets = new Uint32Array(count + 1);
  for (let a = 0; a < adPostcode.length; a++) {
    const p = adPostcode[a]!;
    if (p === 0) continue;
    pcAddrOffsets[p]! += 1;
    pcLng[p - 1]! += lng[a]!;
    pcLat[p - 1]! += lat[a]!;
  }
  for (let p = 0; p < count; p++) {
    const c = pcAddrOffsets[p + 1]!;
    pcLng[p]! /= c;
    pcLat[p]! /= c;
    pcAddrOffsets[p + 1]! += pcAddrOffsets[p]!;
  }
  const pcAddrIds = new Uint32Array(pcAddrOffsets[count]!);
  const fill = pcAddrOffsets.slice(0, count);
  for (let a = 0; a < adPostcode.length; a++) {
    const p = adPostcode[a]!;
    if (p !== 0) pcAddrIds[fill[p - 1]!++] = a;
  }
  for (let p = 0; p < count; p++) {
    const from = pcAddrOffsets[p]!;
    const to = pcAddrOffsets[p + 1]!;
    if (to - from < 2) continue;
    const cx = pcLng[p]!;
    const cy = pcLat[p]!;
    const k = Math.cos((cy * Math.PI) / 180);
    const d2 = (a: number) => ((lng[a]! - cx) * k) ** 2 + (lat[a]! - cy) ** 2;
    const sorted = Array.from(pcAddrIds.subarray(from, to)).sort((x, y) => d2(x) - d2(y) || x - y);
    pcAddrIds.set(sorted, from);
  }
  return { pcLng, pcLat, pcAddrOffsets, pcAddrIds };
}
