import { DLS_MERIDIANS, type DlsMeridian, type DlsQuarter } from './dls-types.ts';

/*
 * The shape of a DLS description, read leniently and without range checks: labelled numbers
 * (LSD 4, Sec. 11, Twp 82, Rge 4), bare numbers in writing order (4-11-82-4), a quarter (NW,
 * N.W. 1/4, North West Quarter), a meridian (W6, W6M, W.6M., West of the 6th Meridian, WPM,
 * EPM, E1) and the things it refuses to resolve (half sections, river lots). parseDls and
 * looksLikeDls both start here.
 */

export type Slot = 'lsd' | 'section' | 'township' | 'range';
export const SLOTS: readonly Slot[] = ['lsd', 'section', 'township', 'range'];

export interface Scan {
  labelled: Partial<Record<Slot, number>>;
  repeated?: Slot;
  /** Bare numbers before the meridian, in order. */
  bare: number[];
  /** Bare numbers after the meridian (a UWI's event sequence, say): never a DLS description. */
  trailing: number;
  keywords: Set<Slot>;
  quarter?: DlsQuarter;
  half?: string;
  riverLot?: boolean;
  /** As written, e.g. 'W6'; may name no DLS meridian ('W7'). */
  meridian?: string;
}

export type ScanResult = { ok: true; scan: Scan } | { ok: false; reason: string };

const KEYWORDS: Readonly<Record<string, Slot>> = {
  LSD: 'lsd', LS: 'lsd', LEGAL: 'lsd',
  SEC: 'section', SECT: 'section', SECTION: 'section',
  TWP: 'township', TP: 'township', TWSP: 'township', TSP: 'township', T: 'township', TOWNSHIP: 'township',
  RGE: 'range', RG: 'range', RNG: 'range', R: 'range', RANGE: 'range',
};
const FILLER = new Set(['OF', 'THE', 'SUBDIVISION', 'SUBDIV', 'IN']);
const ORDINAL = new Set(['ST', 'ND', 'RD', 'TH']);
const MERIDIAN_WORD = new Set(['M', 'MER', 'MERIDIAN']);
const QUARTER_WORD = new Set(['¼', 'QUARTER', 'QTR', 'QUARTERSECTION']);
const HALF_WORD = new Set(['½', 'HALF']);
const NS: Readonly<Record<string, 'N' | 'S'>> = { N: 'N', S: 'S', NORTH: 'N', SOUTH: 'S' };
const EW: Readonly<Record<string, 'E' | 'W'>> = { E: 'E', W: 'W', EAST: 'E', WEST: 'W' };
const COMPASS: Readonly<Record<string, DlsQuarter>> = {
  NE: 'NE', NW: 'NW', SE: 'SE', SW: 'SW',
  NORTHEAST: 'NE', NORTHWEST: 'NW', SOUTHEAST: 'SE', SOUTHWEST: 'SW',
};
const MAX_LENGTH = 160;

/** Upper case, fractions as ¼ and ½, dots inside abbreviations (N.W., L.S.D., W.P.M.) dropped, then runs of letters and of digits. */
function tokenize(text: string): string[] | null {
  const prepared = text
    .toUpperCase()
    .replace(/(?<![0-9])1\s*\/\s*4(?![0-9])/g, ' ¼ ')
    .replace(/(?<![0-9])1\s*\/\s*2(?![0-9])/g, ' ½ ')
    .replace(/\b([A-Z])\.(?=[A-Z]\b)/g, '$1');
  if (/[^A-Z0-9¼½\s\-/\\.,;:_()]/.test(prepared)) return null;
  return prepared.match(/[A-Z]+|[0-9]+|¼|½/g) ?? [];
}

const isNumber = (token: string | undefined): boolean => token !== undefined && /^[0-9]+$/.test(token);

export function scanDls(text: string): ScanResult {
  if (typeof text !== 'string' || text.length > MAX_LENGTH) return { ok: false, reason: 'too long' };
  const tokens = tokenize(text);
  if (!tokens) return { ok: false, reason: 'unexpected character' };
  const scan: Scan = { labelled: {}, bare: [], trailing: 0, keywords: new Set() };
  const fail = (reason: string): ScanResult => ({ ok: false, reason });
  let i = 0;
  const next = () => tokens[i];
  const skip = (words: Set<string>) => {
    while (next() !== undefined && words.has(next()!)) i++;
  };
  while (i < tokens.length) {
    const token = tokens[i]!;
    const after = tokens[i + 1];
    if (isNumber(token)) {
      if (token.length > 3) return fail(`number ${token} is too long`);
      i++;
      // "5th Mer." or "5 Meridian": a meridian written without its W
      if (after !== undefined && (ORDINAL.has(after) || MERIDIAN_WORD.has(after))) {
        if (scan.meridian) return fail('two meridians');
        scan.meridian = `W${Number(token)}`;
        skip(ORDINAL);
        skip(MERIDIAN_WORD);
        continue;
      }
      if (scan.meridian) scan.trailing++;
      else scan.bare.push(Number(token));
      continue;
    }
    const slot = KEYWORDS[token];
    if (slot) {
      i++;
      skip(FILLER);
      const value = next();
      if (value === undefined || !isNumber(value)) return fail(`${token} without a number`);
      if (value.length > 3) return fail(`number ${value} is too long`);
      if (scan.labelled[slot] !== undefined) scan.repeated = slot;
      scan.labelled[slot] = Number(value);
      scan.keywords.add(slot);
      i++;
      continue;
    }
    if (FILLER.has(token)) {
      i++;
      continue;
    }
    if (token === 'RL' || (token === 'RIVER' && after === 'LOT') || token === 'PARISH') {
      scan.riverLot = true;
      i += token === 'RIVER' ? 2 : 1;
      continue;
    }
    // half sections: N 1/2, North Half
    if ((NS[token] || EW[token]) && after !== undefined && HALF_WORD.has(after)) {
      scan.half = `${(NS[token] ?? EW[token])!} 1/2`;
      i += 2;
      continue;
    }
    // quarters: NW, N.W., N W, North West, Northwest; then 1/4, Quarter, of
    let quarter = COMPASS[token];
    if (!quarter && NS[token] && after !== undefined && EW[after] && (token.length === 1) === (after.length === 1)) {
      quarter = `${NS[token]}${EW[after]}` as DlsQuarter;
      i++;
    }
    if (quarter) {
      if (scan.quarter) return fail('two quarters');
      scan.quarter = quarter;
      i++;
      skip(QUARTER_WORD);
      skip(FILLER);
      continue;
    }
    // meridians: W6, W 6, W6M, W.6M., W6th, West of the 6th Meridian, WPM, EPM, E1, East of the Principal Meridian
    let direction = token === 'WPM' ? 'W' : token === 'EPM' ? 'E' : EW[token];
    if (direction) {
      if (scan.meridian) return fail('two meridians');
      i++;
      if (token === 'WPM' || token === 'EPM') {
        scan.meridian = `${direction}1`;
        skip(MERIDIAN_WORD);
        continue;
      }
      skip(FILLER);
      const value = next();
      if (value !== undefined && isNumber(value)) {
        if (value.length > 2) return fail(`meridian ${value} is too long`);
        scan.meridian = `${direction}${Number(value)}`;
        i++;
        skip(ORDINAL);
      } else if (value === 'PM' || value === 'PRINCIPAL' || (value === 'P' && tokens[i + 1] === 'M')) {
        scan.meridian = `${direction}1`;
        i += value === 'P' ? 2 : 1;
      } else {
        return fail(`${token} without a meridian number`);
      }
      skip(MERIDIAN_WORD);
      continue;
    }
    return fail(`unexpected word ${token}`);
  }
  return { ok: true, scan };
}

export const isMeridian = (text: string | undefined): text is DlsMeridian =>
  (DLS_MERIDIANS as readonly string[]).includes(text ?? '');
