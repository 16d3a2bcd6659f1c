/**
 * The acceptance case file format: tab-separated, one case per line, `#` comment lines.
 *
 *   category  endpoint  params  expect  tol_m  rank  note
 *
 * - endpoint: the API path (`/geocode/search`, `/places/poi:osm:n123`, ...).
 * - params: query-string form, readable: `q=223 W Broadway, Vancouver&limit=10`. Only `%`, `&`,
 *   `+`, `#`, `=`, tab and newline inside a value are percent-encoded; spaces stay spaces.
 * - expect: `key=value` pairs joined by `;` (see expectation.ts for the keys); values hold no `;`.
 * - tol_m: metres between the expected point (`at=`) and the result's point; `-` when unused.
 * - rank: the expected row must be at rank ≤ this (1 = top-1); `-` for list-level expectations.
 * - note: free text (where the case comes from).
 */
import { readFile } from 'node:fs/promises';

export interface AcceptanceCase {
  /** `file:line`, to find the case again. */
  where: string;
  category: string;
  endpoint: string;
  params: URLSearchParams;
  /** The params column as written. */
  paramsText: string;
  expect: Map<string, string>;
  expectText: string;
  tolerance: number | null;
  rank: number | null;
  note: string;
}

export const HEADER = ['category', 'endpoint', 'params', 'expect', 'tol_m', 'rank', 'note'] as const;

const ENCODE = /[%&+#=\t\n]/g;

/** One parameter value in the readable query-string form. */
export function encodeValue(value: string): string {
  return value.replace(ENCODE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function formatParams(params: Record<string, string | number>): string {
  return Object.entries(params).map(([k, v]) => `${k}=${encodeValue(String(v))}`).join('&');
}

export interface CaseRow {
  category: string;
  endpoint: string;
  params: Record<string, string | number>;
  expect: Record<string, string | number | boolean>;
  tol?: number;
  rank?: number;
  note?: string;
}

export function formatExpect(expect: CaseRow['expect']): string {
  return Object.entries(expect).map(([k, v]) => {
    const text = v === true ? '' : String(v);
    if (/[;\t\n]/.test(text)) throw new Error(`expectation value ${JSON.stringify(text)} holds a separator`);
    return text === '' ? k : `${k}=${text}`;
  }).join(';');
}

export function formatRow(row: CaseRow): string {
  const cells = [
    row.category, row.endpoint, formatParams(row.params), formatExpect(row.expect),
    row.tol === undefined ? '-' : String(row.tol), row.rank === undefined ? '-' : String(row.rank), row.note ?? '',
  ];
  for (const c of cells) if (/[\t\n]/.test(c)) throw new Error(`cell ${JSON.stringify(c)} holds a tab or newline`);
  return cells.join('\t');
}

function parseExpect(text: string, where: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(';')) {
    const p = part.trim();
    if (!p) continue;
    const eq = p.indexOf('=');
    const key = eq < 0 ? p : p.slice(0, eq);
    if (out.has(key)) throw new Error(`${where}: expectation key ${key} given twice`);
    out.set(key, eq < 0 ? '' : p.slice(eq + 1));
  }
  if (!out.size) throw new Error(`${where}: empty expectation`);
  return out;
}

function parseNumber(text: string, where: string, column: string): number | null {
  if (text === '-' || text === '') return null;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${where}: ${column} must be a positive number or -, got ${JSON.stringify(text)}`);
  return n;
}

export function parseCases(text: string, file: string): AcceptanceCase[] {
  const out: AcceptanceCase[] = [];
  text.split('\n').forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (line.trim() === '' || line.startsWith('#')) return;
    const cells = line.split('\t');
    if (cells[0] === HEADER[0]) return;
    if (cells.length < 6 || cells.length > 7) throw new Error(`${where}: expected 6 or 7 tab-separated cells, got ${cells.length}`);
    const [category, endpoint, paramsText, expectText, tol, rank, note] = cells as [string, string, string, string, string, string, string?];
    if (!endpoint.startsWith('/')) throw new Error(`${where}: endpoint must be a path`);
    out.push({
      where,
      category,
      endpoint,
      params: new URLSearchParams(paramsText),
      paramsText,
      expect: parseExpect(expectText, where),
      expectText,
      tolerance: parseNumber(tol, where, 'tol_m'),
      rank: parseNumber(rank, where, 'rank'),
      note: note ?? '',
    });
  });
  return out;
}

export async function readCases(file: string, label = file): Promise<AcceptanceCase[]> {
  return parseCases(await readFile(file, 'utf8'), label);
}
