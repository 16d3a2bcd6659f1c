/**
 * Free-text query parsing shared by search, batch, structured and autocomplete: civic number,
 * unit, postal code, postal-delivery terms, province spellings, canonical tokens.
 * Pure and allocation-light; every regex is compiled once at module load.
 */
import { cleanDisplay, fold, tokenize } from './fold.ts';
import { POSTCODE_IN_TEXT, canonicalPostcodeMatch } from './postcode.ts';
import { regionTokenSpans } from './provinces.ts';
import {
  canonicalToken, canonicalTokens, isNumericOrdinal, isStreetTypeOrDirectional, prefixCanonicals,
} from './street-terms.ts';

export interface ParsedQuery {
  /**
   * Civic number as written, folded: "43", "43a" (also from "43-A"), "43 1/2" (from "43 1/2" or
   * "43½"); absent when none.
   */
  housenumber?: string;
  /** "401" from "401-43 Hanna Ave", "Apt 4", "#401", "Unit 4", "Suite 200", "app 4", "bureau 200", "local 3". Folded. */
  unit?: string;
  /** Canonical A1A 1A1. */
  postcode?: string;
  /**
   * Remaining tokens after removing housenumber/unit/postcode/delivery terms, canonicalized, in
   * order. Country words (canada, ca) after a trailing province spelling are dropped too.
   */
  tokens: string[];
  /** Same tokens folded but not canonicalized (same length and order as tokens). */
  rawTokens: string[];
  /** Province spellings at the tail of the query (indices into tokens, [start, end)). */
  regions: Array<{ code: string; start: number; end: number }>;
  /** The query had postal delivery terms (PO Box, CP, RR, General Delivery, STN/SUCC, Site/Comp, Box N). */
  delivery: boolean;
}

export interface ParsedStreetLine {
  housenumber?: string;
  unit?: string;
  tokens: string[];
  rawTokens: string[];
  /** Postal delivery terms were present (and removed from tokens). */
  delivery: boolean;
  /** A civic number (possibly with a unit) and no street name: structured search answers 400. */
  civicOnly: boolean;
}

export interface ParsedAutocomplete {
  /** Whole words before the prefix, folded and canonicalized, without the civic number. */
  complete: string[];
  /** Last word, folded, not canonicalized (match it raw and through prefixCanonicals); null when the input ends with a separator. */
  prefix: string | null;
  housenumber?: string;
  unit?: string;
}

// ---------------------------------------------------------------------------------------------
// Lexing: whitespace/comma-separated lexemes, each turned into typed items.

type Item =
  | { kind: 'word'; tok: string; lex: number; /** the lexeme folded to this one token only */ alone: boolean }
  | { kind: 'hash'; value: string; lex: number }
  | { kind: 'unitcivic'; unit: string; civic: string; lex: number }
  | { kind: 'fraction'; value: string; lex: number };

const LEXEME_SPLIT = /[\s,;]+/;
const EDGE_PUNCT = /^[("'“«\[]+|[.:)"'”»\]]+$/g;
const UNIT_CIVIC = /^#?(\d+[a-z]?|[a-z])-(\d+[a-z]?)$/;
const NUM_DASH_LETTER = /^(\d+)-([a-z])$/;
const HASH = /^#([a-z0-9]+(?:-[a-z0-9]+)?)$/;
const FRACTION = /^\d\/\d{1,2}$/;
const CIVIC = /^\d{1,6}[a-z]?$/;
const UNIT_VALUE = /^(?:\d+[a-z]?|[a-z]\d*|\d+-\d+|[a-z]-?\d+)$/;
const GLUED_UNIT = /^(apt|app|appt|unit|suite|ste|bureau|local|rm|ph)(\d+[a-z]?)$/;
const GLUED_DELIVERY = /^(rr|box|cp|ss|mr|site|comp)(\d+)$/;
const HAS_DIGIT = /\d/;
const FRACTION_SLASH = /\u2044/g;
const VULGAR_HALF = /\u00bd/g;
const LAST_IS_WORD_CHAR = /[\p{L}\p{N}\p{M}'’ʼ`]$/u;

function lex(s: string): Item[] {
  const items: Item[] = [];
  const parts = s.split(LEXEME_SPLIT);
  let lexIndex = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (part === '') continue;
    const lower = part.toLowerCase().replace(EDGE_PUNCT, '');
    const lx = lexIndex++;
    if (lower === '#') {
      // "# 401" reads like "#401".
      const next = parts[p + 1]?.toLowerCase().replace(EDGE_PUNCT, '');
      if (next !== undefined && UNIT_VALUE.test(next)) {
        items.push({ kind: 'hash', value: next, lex: lx });
        p++;
        continue;
      }
    }
    let m = UNIT_CIVIC.exec(lower);
    if (m) { items.push({ kind: 'unitcivic', unit: m[1]!, civic: m[2]!, lex: lx }); continue; }
    m = NUM_DASH_LETTER.exec(lower);
    if (m) { items.push({ kind: 'word', tok: m[1]! + m[2]!, lex: lx, alone: true }); continue; }
    m = HASH.exec(lower);
    if (m) { items.push({ kind: 'hash', value: m[1]!, lex: lx }); continue; }
    if (FRACTION.test(lower)) { items.push({ kind: 'fraction', value: lower, lex: lx }); continue; }
    const toks = tokenize(part);
    for (const tok of toks) items.push({ kind: 'word', tok, lex: lx, alone: toks.length === 1 });
  }
  return items;
}

// ---------------------------------------------------------------------------------------------
// Postal delivery terms and unit designators.

/** Phrases (folded tokens) introducing a delivery mode; `arg` says what must follow. */
const DELIVERY_PHRASES: ReadonlyArray<{ words: readonly string[]; arg: 'number' | 'none' | 'name' | 'optional-number' }> = [
  { words: ['p', 'o', 'box'], arg: 'optional-number' },
  { words: ['po', 'box'], arg: 'optional-number' },
  { words: ['post', 'office', 'box'], arg: 'optional-number' },
  { words: ['pob'], arg: 'number' },
  { words: ['box'], arg: 'number' },
  { words: ['c', 'p'], arg: 'number' },
  { words: ['cp'], arg: 'number' },
  { words: ['case', 'postale'], arg: 'optional-number' },
  { words: ['r', 'r'], arg: 'number' },
  { words: ['rr'], arg: 'number' },
  { words: ['rural', 'route'], arg: 'number' },
  { words: ['route', 'rurale'], arg: 'number' },
  { words: ['ss'], arg: 'number' },
  { words: ['suburban', 'service'], arg: 'number' },
  { words: ['mr'], arg: 'number' },
  { words: ['mobile', 'route'], arg: 'number' },
  { words: ['general', 'delivery'], arg: 'none' },
  { words: ['gd'], arg: 'none' },
  { words: ['poste', 'restante'], arg: 'none' },
  { words: ['livraison', 'generale'], arg: 'none' },
  { words: ['stn'], arg: 'name' },
  { words: ['succ'], arg: 'name' },
  { words: ['succursale'], arg: 'name' },
];
/** Only delivery terms when another delivery term is present ("Site 5 Comp 12 RR 1", "Station A"). */
const SECONDARY_DELIVERY = new Set(['site', 'comp', 'compartment', 'station']);

const UNIT_WORDS = new Set([
  'apt', 'apartment', 'app', 'appt', 'appartement', 'unit', 'unite', 'suite', 'ste', 'bureau', 'bur',
  'local', 'room', 'rm', 'ph', 'penthouse', 'logement',
]);

const BUILDING_WORDS = new Set(['bldg', 'building', 'batiment', 'edifice', 'bat']);

/** Street types after which "#7" is a route number, not a unit ("Hwy #7", "Route #132"). */
const NUMBERED_ROUTE_TYPES = new Set(['hwy', 'rte', 'rd', 'fwy', 'expy', 'rg', 'twp', 'conc', 'line', 'ch']);
/** Words that name a numbered route's kind, not a street ("County Road #5", "Regional Rd #7"). */
const ROUTE_QUALIFIERS = new Set(['county', 'regional', 'region', 'provincial', 'secondary', 'township', 'concession', 'range']);
/** Route types whose "#N" is always the route number ("123 Kings Hwy #2"). */
const HIGHWAY_TYPES = new Set(['hwy', 'fwy', 'expy', 'rte']);

/**
 * "#N" after a route type is the route's number ("Hwy #7", "123 County Rd #5") unless a civic number
 * and a street name come first (highways excepted): "14231 Burrows Road #203" is unit 203 of 14231 Burrows Road.
 */
function hashIsRouteNumber(items: Item[], removed: Uint8Array, i: number): boolean {
  let k = i - 1;
  while (k >= 0 && removed[k]) k--;
  const type = wordAt(items, k);
  if (type === undefined || !NUMBERED_ROUTE_TYPES.has(canonicalToken(type))) return false;
  if (HIGHWAY_TYPES.has(canonicalToken(type))) return true;
  let lead = 0;
  while (lead < k && removed[lead]) lead++;
  if (lead >= k || !(items[lead]!.kind === 'unitcivic' || isLeadingCivic(items, lead))) return true;
  for (let j = lead + 1; j < k; j++) {
    const w = removed[j] ? undefined : wordAt(items, j);
    if (w !== undefined && !NUMBERED_ROUTE_TYPES.has(canonicalToken(w)) && !ROUTE_QUALIFIERS.has(w)) return false;
  }
  return true;
}

function wordAt(items: Item[], i: number): string | undefined {
  const it = items[i];
  return it !== undefined && it.kind === 'word' ? it.tok : undefined;
}

function matchPhrase(items: Item[], i: number, words: readonly string[]): boolean {
  for (let k = 0; k < words.length; k++) if (wordAt(items, i + k) !== words[k]) return false;
  return true;
}

/** A number-like argument at i ("123", "#2", "2a"); returns it or undefined. */
function numberArg(items: Item[], i: number): string | undefined {
  const it = items[i];
  if (it === undefined) return undefined;
  if (it.kind === 'hash') return it.value;
  if (it.kind === 'word' && CIVIC.test(it.tok)) return it.tok;
  return undefined;
}

interface Core {
  housenumber?: string;
  unit?: string;
  postcode?: string;
  rawTokens: string[];
  delivery: boolean;
}

function parseCore(raw: string, extractPostcode: boolean): Core {
  let s = cleanDisplay(raw.replace(VULGAR_HALF, ' 1/2')).replace(FRACTION_SLASH, '/');
  const out: Core = { rawTokens: [], delivery: false };

  if (extractPostcode) {
    let last: RegExpMatchArray | undefined;
    for (const m of s.matchAll(POSTCODE_IN_TEXT)) last = m;
    if (last !== undefined && last.index !== undefined) {
      out.postcode = canonicalPostcodeMatch(last[0]);
      s = `${s.slice(0, last.index)} , ${s.slice(last.index + last[0].length)}`;
    }
  }

  const items = lex(s);
  expandRangeRoad(items);
  const removed = new Uint8Array(items.length);

  // Delivery phrases.
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (it.kind !== 'word' || removed[i]) continue;
    const glued = GLUED_DELIVERY.exec(it.tok);
    if (glued && !SECONDARY_DELIVERY.has(glued[1]!)) {
      removed[i] = 1;
      out.delivery = true;
      continue;
    }
    for (const phrase of DELIVERY_PHRASES) {
      if (!matchPhrase(items, i, phrase.words)) continue;
      const after = i + phrase.words.length;
      let end = after;
      if (phrase.arg === 'number' || phrase.arg === 'optional-number') {
        if (numberArg(items, after) !== undefined) end = after + 1;
        else if (phrase.arg === 'number') continue;
      } else if (phrase.arg === 'name') {
        const next = items[after];
        if (next === undefined) continue;
        end = after + 1;
        while (items[end] !== undefined && items[end]!.lex === next.lex) end++;
      }
      for (let k = i; k < end; k++) removed[k] = 1;
      out.delivery = true;
      i = end - 1;
      break;
    }
  }
  if (out.delivery) {
    for (let i = 0; i < items.length; i++) {
      const it = items[i]!;
      if (it.kind !== 'word' || removed[i]) continue;
      const glued = GLUED_DELIVERY.exec(it.tok);
      if (glued && SECONDARY_DELIVERY.has(glued[1]!)) { removed[i] = 1; continue; }
      if (!SECONDARY_DELIVERY.has(it.tok)) continue;
      const arg = numberArg(items, i + 1);
      if (arg !== undefined) { removed[i] = 1; removed[i + 1] = 1; i++; }
      else if (it.tok === 'station' && items[i + 1] !== undefined) { removed[i] = 1; removed[i + 1] = 1; i++; }
    }
  }

  // Unit designators ("Apt 4", "Suite 200", "#401", "apt4"); a building number is the unit only without one.
  let buildingValue: string | undefined;
  for (let i = 0; i < items.length; i++) {
    if (removed[i]) continue;
    const it = items[i]!;
    if (it.kind === 'hash') {
      if (hashIsRouteNumber(items, removed, i)) {
        items[i] = { kind: 'word', tok: it.value, lex: it.lex, alone: true };
        continue;
      }
      if (out.unit === undefined) out.unit = it.value;
      removed[i] = 1;
      continue;
    }
    if (it.kind !== 'word') continue;
    const glued = GLUED_UNIT.exec(it.tok);
    if (glued) {
      if (out.unit === undefined) out.unit = glued[2]!;
      removed[i] = 1;
      continue;
    }
    const building = BUILDING_WORDS.has(it.tok);
    if (!building && !UNIT_WORDS.has(it.tok)) continue;
    const next = items[i + 1];
    if (next === undefined || removed[i + 1]) continue;
    let value: string | undefined;
    if (next.kind === 'hash') value = next.value;
    else if (next.kind === 'word' && UNIT_VALUE.test(next.tok) && (HAS_DIGIT.test(next.tok) || it.tok !== 'ste')) value = next.tok;
    if (value === undefined) continue;
    if (building) buildingValue ??= value;
    else if (out.unit === undefined) out.unit = value;
    removed[i] = 1;
    removed[i + 1] = 1;
    i++;
  }

  if (out.unit === undefined && buildingValue !== undefined) out.unit = buildingValue;

  // Civic number: the first remaining item.
  let first = 0;
  while (first < items.length && removed[first]) first++;
  const lead = items[first];
  if (lead !== undefined) {
    if (lead.kind === 'unitcivic') {
      if (out.unit === undefined) out.unit = lead.unit;
      out.housenumber = lead.civic;
      removed[first] = 1;
    } else if (isLeadingCivic(items, first)) {
      out.housenumber = (lead as { tok: string }).tok;
      removed[first] = 1;
    }
    if (out.housenumber !== undefined) {
      const next = first + 1;
      const it = items[next];
      if (it !== undefined && !removed[next] && it.kind === 'fraction') {
        out.housenumber += ` ${it.value}`;
        removed[next] = 1;
      }
    }
  }

  for (let i = 0; i < items.length; i++) {
    if (removed[i]) continue;
    const it = items[i]!;
    if (it.kind === 'word') out.rawTokens.push(it.tok);
    else if (it.kind === 'unitcivic') out.rawTokens.push(...tokenize(`${it.unit} ${it.civic}`));
    else out.rawTokens.push(...tokenize(it.value));
  }
  return out;
}

/**
 * "52345 RR 232": right after a leading civic number, RR + number is a prairie range road
 * (written "Range Road 232" in the sources), not a rural route. Rewritten as words range road.
 */
function expandRangeRoad(items: Item[]): void {
  const civic = items[0]?.kind === 'unitcivic' || isLeadingCivic(items, 0);
  if (!civic) return;
  const w1 = wordAt(items, 1);
  const lx = items[1]?.lex ?? 0;
  if (w1 === 'rr' && numberArg(items, 2) !== undefined) {
    items.splice(1, 1, { kind: 'word', tok: 'range', lex: lx, alone: false }, { kind: 'word', tok: 'road', lex: lx, alone: false });
  } else if (w1 === 'r' && wordAt(items, 2) === 'r' && numberArg(items, 3) !== undefined) {
    items.splice(1, 2, { kind: 'word', tok: 'range', lex: lx, alone: false }, { kind: 'word', tok: 'road', lex: lx, alone: false });
  } else return;
  const n = items[3]!;
  if (n.kind === 'hash') items[3] = { kind: 'word', tok: n.value, lex: n.lex, alone: true };
}

/**
 * Item i is a civic number: a lone number (optionally one letter: 43a) making up its whole
 * lexeme, not a French ordinal before a street type ("4e Avenue", "2e Rang").
 */
function isLeadingCivic(items: Item[], i: number): boolean {
  const it = items[i];
  if (it === undefined || it.kind !== 'word' || !it.alone || !CIVIC.test(it.tok)) return false;
  if (isNumericOrdinal(it.tok)) {
    const next = items[i + 1];
    if (next !== undefined && next.kind === 'word' && isStreetTypeOrDirectional(canonicalToken(next.tok))) return false;
  }
  return true;
}

/** Free-text search query → parts (see ParsedQuery). Deciding 400s is the engine's job. */
export function parseQuery(raw: string): ParsedQuery {
  const core = parseCore(raw, true);
  const regions = regionTokenSpans(core.rawTokens);
  // "…, Toronto, ON, Canada": the country after a province spelling is noise ("Bank of Canada" keeps it).
  const lastRegion = regions[regions.length - 1];
  if (lastRegion !== undefined) core.rawTokens.length = lastRegion.end;
  const tokens = canonicalTokens(core.rawTokens);
  const q: ParsedQuery = {
    tokens,
    rawTokens: core.rawTokens,
    regions,
    delivery: core.delivery,
  };
  if (core.housenumber !== undefined) q.housenumber = core.housenumber;
  if (core.unit !== undefined) q.unit = core.unit;
  if (core.postcode !== undefined) q.postcode = core.postcode;
  return q;
}

/** Structured search `address` (street line). */
export function parseStreetLine(line: string): ParsedStreetLine {
  const core = parseCore(line, false);
  const tokens = canonicalTokens(core.rawTokens);
  const r: ParsedStreetLine = {
    tokens,
    rawTokens: core.rawTokens,
    delivery: core.delivery,
    civicOnly: core.housenumber !== undefined && tokens.length === 0,
  };
  if (core.housenumber !== undefined) r.housenumber = core.housenumber;
  if (core.unit !== undefined) r.unit = core.unit;
  return r;
}

/**
 * Autocomplete input: hyphens split words, accents folded; the last word is the prefix unless
 * the input ends with a space or punctuation (then every word is complete and prefix is null).
 * A leading civic number ("43 han", "401-43 hann") is returned apart when more words follow.
 */
export function parseAutocomplete(raw: string): ParsedAutocomplete {
  const s = cleanDisplay(raw);
  if (fold(s) === '') return { complete: [], prefix: null };
  const endsWithSeparator = !LAST_IS_WORD_CHAR.test(raw.normalize('NFKC'));
  const lexemes = s.split(LEXEME_SPLIT).filter((x) => x !== '');
  const r: ParsedAutocomplete = { complete: [], prefix: null };
  const words: string[] = [];
  for (let i = 0; i < lexemes.length; i++) {
    const lexeme = lexemes[i]!;
    if (i === 0 && lexemes.length > 1) {
      const lower = lexeme.toLowerCase().replace(EDGE_PUNCT, '');
      const uc = UNIT_CIVIC.exec(lower);
      if (uc) { r.unit = uc[1]!; r.housenumber = uc[2]!; continue; }
      if (CIVIC.test(lower)) {
        const nextToks = tokenize(lexemes[1]!);
        const nextIsPrefix = lexemes.length === 2 && nextToks.length === 1 && !endsWithSeparator;
        const ordinalBeforeType = isNumericOrdinal(lower) && nextToks.length > 0 && (nextIsPrefix
          ? prefixCanonicals(nextToks[0]!).some(isStreetTypeOrDirectional)
          : isStreetTypeOrDirectional(canonicalToken(nextToks[0]!)));
        if (!ordinalBeforeType) { r.housenumber = lower; continue; }
      }
    }
    words.push(...tokenize(lexeme));
  }
  if (!endsWithSeparator && words.length > 0) r.prefix = words.pop()!;
  r.complete = canonicalTokens(words);
  return r;
}
