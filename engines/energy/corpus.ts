import { QueryError } from '../../lib/query-error.ts';
import { resolveRegion } from '../geocoding/text/provinces.ts';
import { NameIndex } from './name-index.ts';
import type { EnergyCorpus, EnergyRecord, EnergySearchOptions, FacilityRecord, WellRecord } from './records.ts';
import { looksLikeUwi, parseUwi } from './uwi.ts';

/** Score of an exact UWI or facility id, and of an exact licence (names stay below 0.9). */
const EXACT_ID_SCORE = 1;
const EXACT_LICENCE_SCORE = 0.95;

/** Licence and id comparison key: upper case, no spaces or dashes, leading zeros of a number dropped. */
export function licenceKey(text: string): string {
  const key = text.trim().toUpperCase().replace(/[\s-]/g, '');
  return /^\d+$/.test(key) ? key.replace(/^0+(?=\d)/, '') : key;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** An open energy release: every well and facility in memory, indexed by UWI, id, licence and name. */
export class EnergyData implements EnergyCorpus {
  private readonly records: (WellRecord | FacilityRecord)[];
  private readonly byCompact = new Map<string, WellRecord[]>();
  private readonly byFacilityId = new Map<string, FacilityRecord[]>();
  private readonly byLicence = new Map<string, (WellRecord | FacilityRecord)[]>();
  private readonly names: NameIndex;

  constructor(
    readonly releaseId: string,
    readonly wells: readonly WellRecord[],
    readonly facilities: readonly FacilityRecord[],
  ) {
    this.records = [...wells, ...facilities];
    for (const well of wells) push(this.byCompact, well.compact, well);
    for (const facility of facilities) push(this.byFacilityId, facility.facilityId, facility);
    for (const record of this.records) if (record.licence) push(this.byLicence, licenceKey(record.licence), record);
    this.names = new NameIndex(this.records.map((r) => r.name));
  }

  wellsByUwi(compact: string): WellRecord[] {
    return [...(this.byCompact.get(compact.trim().toUpperCase()) ?? [])];
  }

  search(q: string, opts: EnergySearchOptions): EnergyRecord[] {
    const keep = this.filter(opts);
    const scores = new Map<WellRecord | FacilityRecord, number>();
    const offer = (record: WellRecord | FacilityRecord, score: number) => {
      if (keep(record) && score > (scores.get(record) ?? 0)) scores.set(record, score);
    };
    if (looksLikeUwi(q)) {
      for (const well of this.byCompact.get(parseUwi(q).compact) ?? []) offer(well, EXACT_ID_SCORE);
    }
    const key = licenceKey(q);
    for (const facility of this.byFacilityId.get(key) ?? []) offer(facility, EXACT_ID_SCORE);
    for (const record of this.byLicence.get(key) ?? []) offer(record, EXACT_LICENCE_SCORE);
    for (const [index, score] of this.names.match(q)) offer(this.records[index]!, score);
    return [...scores]
      .sort(([a, sa], [b, sb]) => sb - sa || compare(a.name, b.name) || compare(a.id, b.id))
      .slice(0, Math.max(0, opts.limit))
      .map(([record, score]) => ({ ...record, score }));
  }

  private filter(opts: EnergySearchOptions): (record: WellRecord | FacilityRecord) => boolean {
    const layers = new Set(opts.layers);
    let province: string | null = null;
    if (opts.region !== undefined) {
      province = resolveRegion(opts.region);
      if (!province) throw new QueryError(`unknown region ${JSON.stringify(opts.region)}: give a province such as AB, BC or SK`);
    }
    const bbox = opts.bbox;
    return (r) =>
      layers.has(r.kind) &&
      (province === null || r.province === province) &&
      (!bbox || (r.lng >= bbox[0] && r.lat >= bbox[1] && r.lng <= bbox[2] && r.lat <= bbox[3]));
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
