import { indexOfSorted, prefixRange } from './index/strings.ts';
import type { IndexView } from './index/view.ts';
import { W } from './rank.ts';
import { civicKey } from './text/fold.ts';
import type { MatchReason } from './types.ts';

/** The civic part of a query, resolved once against the house-number and postcode tables. */
export interface CivicQuery {
  /** House-number table rows [lo, hi) equal to the asked number. */
  lo: number;
  hi: number;
  /** Rows with the same leading number but another suffix (43 ↔ 43A): housenumber_differs. */
  near: Set<number>;
  unitKey: string | null;
  /** Asked postcode: its table row + 1; 0 when the index has no such postcode; -1 when none asked. */
  postcode: number;
}

export function prepareCivic(view: IndexView, housenumber: string | undefined, unit: string | undefined, postcode: string | undefined): CivicQuery {
  const key = housenumber ? civicKey(housenumber) : '';
  const [lo, hi] = key ? exactRange(view.hnKeys, key) : [0, 0];
  const near = new Set<number>();
  const base = /^\d+/.exec(key)?.[0];
  if (base) {
    const add = ([from, to]: [number, number]) => {
      for (let r = from; r < to; r++) if (r < lo || r >= hi) near.add(r);
    };
    if (base !== key) add(exactRange(view.hnKeys, base));
    for (const c of 'abcdefghijklmnopqrstuvwxyz-') add(prefixRange(view.hnKeys, base + c));
  }
  return {
    lo, hi, near,
    unitKey: unit ? civicKey(unit) : null,
    postcode: postcode === undefined ? -1 : indexOfSorted(view.postcodes, postcode) + 1,
  };
}

function exactRange(table: readonly string[], key: string): [number, number] {
  const i = indexOfSorted(table, key);
  if (i < 0) return [0, 0];
  let j = i + 1;
  while (j < table.length && table[j] === key) j++;
  return [i, j];
}

export interface AddressPick {
  address: number;
  reasons: MatchReason[];
  /** Score change from the address details (found, differing number, unit, postcode). */
  delta: number;
}

/** Best address point for the asked civic on one street; null when the street has no such number. */
export function pickAddress(view: IndexView, street: number, civic: CivicQuery): AddressPick | null {
  const a = view.a;
  const from = a.entAddrStart[street]!;
  const to = from + a.entAddrCount[street]!;
  const exact: number[] = [];
  const near: number[] = [];
  for (let p = from; p < to; p++) {
    const r = a.adHn[p]!;
    if (r >= civic.lo && r < civic.hi) exact.push(p);
    else if (civic.near.size && civic.near.has(r)) near.push(p);
  }
  const pool = exact.length ? exact : near;
  if (!pool.length) return null;
  const reasons: MatchReason[] = [];
  let delta = W.addressFound;
  if (!exact.length) {
    reasons.push('housenumber_differs');
    delta -= W.housenumberDiffers;
  }

  // Unit: the asked unit, else the building's own point, else another unit.
  let chosen: number[];
  if (civic.unitKey !== null) {
    const same = pool.filter((p) => a.adUnit[p] !== 0 && civicKey(view.str(a.adUnit[p]!)) === civic.unitKey);
    const bare = pool.filter((p) => a.adUnit[p] === 0);
    if (same.length) {
      chosen = same;
      delta += W.unitOk;
    } else if (bare.length) {
      chosen = bare;
      reasons.push('unit_not_verified');
    } else {
      chosen = pool;
      reasons.push('unit_differs');
      delta -= W.unitDiffers;
    }
  } else {
    const bare = pool.filter((p) => a.adUnit[p] === 0);
    chosen = bare.length ? bare : pool;
  }

  let address = chosen[0]!;
  if (civic.postcode >= 0) {
    const same = civic.postcode > 0 ? chosen.find((p) => a.adPostcode[p] === civic.postcode) : undefined;
    if (same !== undefined) {
      address = same;
      delta += W.postcodeOk;
    } else {
      const pc = a.adPostcode[address]!;
      if (pc === 0) reasons.push('postalcode_not_verified');
      else {
        reasons.push('postalcode_differs');
        delta -= W.postcodeDiffers;
      }
    }
  }
  return { address, reasons, delta };
}

/**
 * Postcode check for a street: ok when one of its points carries it, not verifiable when none
 * carries any postcode, differs otherwise.
 */
export function streetPostcode(view: IndexView, street: number, postcodeRow: number): 'ok' | 'unverified' | 'differs' {
  const a = view.a;
  const from = a.entAddrStart[street]!;
  const to = from + Math.min(a.entAddrCount[street]!, 50_000);
  let any = false;
  for (let p = from; p < to; p++) {
    const pc = a.adPostcode[p]!;
    if (pc === 0) continue;
    if (pc === postcodeRow) return 'ok';
    any = true;
  }
  return any ? 'differs' : 'unverified';
}
