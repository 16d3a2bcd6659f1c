/**
 * The part of free-text parsing shared by the search and street-line parsers: takes out the
 * postal code, postal delivery terms, the unit and the civic number, leaving the folded tokens.
 */
import { cleanDisplay, tokenize } from './fold.ts';
import { POSTCODE_IN_TEXT, canonicalPostcodeMatch } from './postcode.ts';
import {
  BUILDING_WORDS, DELIVERY_PHRASES, GLUED_DELIVERY, GLUED_UNIT, SECONDARY_DELIVERY, UNIT_WORDS, hashIsRouteNumber,
} from './delivery-unit-terms.ts';
import { UNIT_VALUE, isLeadingCivic, lex, matchPhrase, numberArg, wordAt, type Item } from './query-lex.ts';

const HAS_DIGIT = /\d/;
const FRACTION_SLASH = /\u2044/g;
const VULGAR_HALF = /\u00bd/g;

export interface Core {
  housenumber?: string;
  unit?: string;
  postcode?: string;
  rawTokens: string[];
  delivery: boolean;
}

export function parseCore(raw: string, extractPostcode: boolean): Core {
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
