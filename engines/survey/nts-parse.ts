import { NtsParseError } from './nts-error.ts';
import { ntsCell } from './nts-grid.ts';
import type { NtsCell, NtsLevel, NtsRef } from './nts-types.ts';

type PartKey = 'series' | 'mapArea' | 'sheet' | 'block' | 'unit' | 'quarterUnit';

/** Token shapes (D digits, L letters) and the part each token holds, in writing order. */
const SHAPES: Readonly<Record<string, { level: NtsLevel; parts: readonly PartKey[] }>> = {
  D: { level: 'series', parts: ['series'] },
  DL: { level: 'map_area', parts: ['series', 'mapArea'] },
  DLD: { level: 'sheet', parts: ['series', 'mapArea', 'sheet'] },
  LDLD: { level: 'block', parts: ['block', 'series', 'mapArea', 'sheet'] },
  DLDLD: { level: 'unit', parts: ['unit', 'block', 'series', 'mapArea', 'sheet'] },
  LDLDLD: { level: 'quarter_unit', parts: ['quarterUnit', 'unit', 'block', 'series', 'mapArea', 'sheet'] },
};

const SEPARATOR = /[\s\-/\\._]/;
const NOT_A_REFERENCE =
  'not an NTS reference: expected a form such as 093, 93F, 093F10, 93F/10, L/093-F-10 or B-001-L/093-F-10';
const MAX_LENGTH = 64;

/** Runs of digits and of letters; separators only split. */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  const flush = () => {
    if (current) tokens.push(current);
    current = '';
  };
  for (const char of text) {
    if (SEPARATOR.test(char)) {
      flush();
      continue;
    }
    const isDigit = char >= '0' && char <= '9';
    if (!isDigit && !/^[A-Za-z]$/.test(char)) throw new NtsParseError('reference', `unexpected character "${char}"`);
    const last = current.at(-1);
    if (last !== undefined && (last >= '0' && last <= '9') !== isDigit) flush();
    current += char;
  }
  flush();
  return tokens;
}

/**
 * Reads an NTS or BC grid reference leniently: any case, optional leading zeros, separators
 * (space - / \ . _) optional: "21h1", "93F/10", "093 F 10", "b-1-l/93-f-10", "D096H094A15".
 * Returns the checked cell; throws NtsParseError naming the part at fault.
 */
export function parseNts(text: string): NtsCell {
  if (typeof text !== 'string' || text.length > MAX_LENGTH) throw new NtsParseError('reference', NOT_A_REFERENCE);
  const tokens = tokenize(text);
  const shape = SHAPES[tokens.map((token) => (/^\d/.test(token) ? 'D' : 'L')).join('')];
  if (!shape) throw new NtsParseError('reference', NOT_A_REFERENCE);
  const parts: Partial<Record<PartKey, string | number>> = {};
  shape.parts.forEach((key, i) => {
    const token = tokens[i] ?? '';
    parts[key] = /^\d/.test(token) ? Number(token) : token.toUpperCase();
  });
  return ntsCell({ ...parts, level: shape.level } as NtsRef);
}
