/**
 * OSM `addr:housenumber` values → one or more (civic number, unit) pairs.
 *
 * - Lists `12;14` (and `12, 14` when every part is a bare number) give one point per number.
 * - Canadian unit–civic forms give the unit apart: `9-1551`, `#101-1401`, `Unit 102 -1626`,
 *   `Suite 110, 1333`, `1333 Unit 110`.
 * - `A-B` with both numbers of the same length, B > A and the same parity is a civic range on
 *   one side of a street (`2801-2831`): both ends become points, since the building holds those
 *   two numbers; nothing between them is invented (which numbers exist inside is unknown).
 *   Any other `A-B` is unit A at civic B, the Canada Post order (`401-43`, `108 - 777`,
 *   `B-204`, and so `2788-1` too).
 * - Anything else is kept as written (after whitespace clean-up) when it holds a digit;
 *   a value without any digit is no civic number and gives nothing.
 * `addr:unit`, when present, is the unit of every point (it beats a unit read from the number);
 * a leading unit word is dropped from it (`Suite 124` → `124`).
 */
import { cleanDisplay } from '../../../engines/geocoding/text/fold.ts';

export interface CivicNumber {
  housenumber: string;
  unit: string | null;
}

const CIVIC = String.raw`\d+(?:\s?[A-Za-z])?(?:\s1/2)?`;
const UNIT_WORD = String.raw`(?:(?:unit|suite|ste|apt|apartment|app|appartement|bureau|local)\b\.?|#)`;
const UNIT_PREFIX = new RegExp(String.raw`^${UNIT_WORD}\s*#?\s*([0-9A-Za-z]+)\s*(?:,|-|–|\s)\s*(${CIVIC})$`, 'i');
const UNIT_SUFFIX = new RegExp(String.raw`^(${CIVIC})\s*,?\s+${UNIT_WORD}\s*#?\s*([0-9A-Za-z]+)$`, 'i');
const DASHED = new RegExp(String.raw`^([0-9A-Za-z]+)\s*[-–]\s*(${CIVIC})$`);
const BARE_NUMBER = /^\d+[A-Za-z]?$/;
const DIGIT = /\d/;
const UNIT_TAG_WORD = new RegExp(String.raw`^${UNIT_WORD}\s*#?\s*(?=\S)`, 'i');

/** `addr:unit` without its leading unit word (`Suite 124` → `124`, `#5` → `5`). */
function cleanUnit(value: string): string | null {
  const t = cleanDisplay(value).replace(UNIT_TAG_WORD, '');
  return t === '' ? null : t;
}

export function parseHousenumber(raw: string, unitTag?: string | null): CivicNumber[] {
  const unitOverride = unitTag ? cleanUnit(unitTag) : null;
  // The common case, a plain number, without the pattern work.
  if (BARE_NUMBER.test(raw)) return [{ housenumber: raw, unit: unitOverride }];
  const text = cleanDisplay(raw);
  let parts = text.split(';').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 1 && text.includes(',')) {
    const commaParts = text.split(',').map((p) => p.trim());
    if (commaParts.every((p) => BARE_NUMBER.test(p))) parts = commaParts;
  }
  const out: CivicNumber[] = [];
  for (const part of parts) {
    if (!DIGIT.test(part)) continue;
    let m = UNIT_PREFIX.exec(part);
    if (m) {
      addCivic(out, m[2]!, unitOverride ?? m[1]!);
      continue;
    }
    m = UNIT_SUFFIX.exec(part);
    if (m) {
      addCivic(out, m[1]!, unitOverride ?? m[2]!);
      continue;
    }
    m = DASHED.exec(part);
    if (m) {
      const [a, b] = [m[1]!, m[2]!];
      if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length === b.length && Number(b) > Number(a) && Number(a) % 2 === Number(b) % 2) {
        addCivic(out, a, unitOverride);
        addCivic(out, b, unitOverride);
      } else {
        addCivic(out, b, unitOverride ?? a);
      }
      continue;
    }
    addCivic(out, part, unitOverride);
  }
  return out;
}

function addCivic(out: CivicNumber[], housenumber: string, unit: string | null): void {
  if (!out.some((c) => c.housenumber === housenumber && c.unit === unit)) out.push({ housenumber, unit });
}
