import { describe, expect, it } from 'vitest';
import { detectGrammar } from '../../engines/grammars/detect.ts';
import { parseGrammarQuery, type ParsedGrammar } from '../../engines/grammars/parse.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { dlsCellAt } from '../../engines/survey/dls.ts';
import { ntsCellAt } from '../../engines/survey/nts.ts';
import { generatedCases, generatedRecordIds, HAND_CASES, VECTOR_CASES, type AcceptanceCase } from '../support/grammars/acceptance-cases.ts';

const canonicalOf = (parsed: ParsedGrammar): string => {
  switch (parsed.grammar) {
    case 'dls':
    case 'nts': return parsed.cell.id;
    case 'uwi': return parsed.uwi.canonical;
    case 'pid': return parsed.formatted;
  }
};

/** Metres from a point to a box (0 inside). */
function metresOutside(bounds: readonly number[], lng: number, lat: number): number {
  const [w, s, e, n] = bounds as [number, number, number, number];
  const x = Math.min(Math.max(lng, w), e);
  const y = Math.min(Math.max(lat, s), n);
  return haversineMetres(lng, lat, x, y);
}

/** Why a case fails, or null when it passes: detection, canonical form, location (the cell holds its own centre and the vector point). */
function failure(c: AcceptanceCase): string | null {
  const grammar = detectGrammar(c.query);
  if (grammar !== c.grammar) return `detected ${grammar}, expected ${c.grammar}`;
  if (c.grammar === null) return null;
  let parsed: ParsedGrammar | null;
  try {
    parsed = parseGrammarQuery(c.query);
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  }
  if (!parsed) return 'not parsed';
  const canonical = canonicalOf(parsed);
  if (c.canonical !== undefined && canonical !== c.canonical) return `resolved to ${canonical}, expected ${c.canonical}`;
  if (parsed.grammar === 'dls' || parsed.grammar === 'nts') {
    const cell = parsed.cell;
    const [w, s, e, n] = cell.bounds;
    const [lng, lat] = parsed.grammar === 'dls' ? parsed.cell.centre : [(w + e) / 2, (s + n) / 2];
    const again = parsed.grammar === 'dls' ? dlsCellAt(lng, lat, parsed.cell.level) : ntsCellAt(lng, lat, parsed.cell.level);
    if (again?.id !== cell.id) return `the cell at its own centre is ${again?.id}`;
    if (c.near) {
      const off = parsed.grammar === 'dls' ? haversineMetres(c.near.lng, c.near.lat, lng, lat) : metresOutside(cell.bounds, c.near.lng, c.near.lat);
      if (off > c.near.metres) return `${Math.round(off)} m from the published point (allowed ${c.near.metres} m)`;
    }
  }
  return null;
}

describe('legal-land, well and parcel grammars: the acceptance set', () => {
  const cases = [...generatedCases(160), ...generatedRecordIds(20), ...VECTOR_CASES, ...HAND_CASES];

  it('has at least 200 cases of every origin', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    for (const origin of ['generated', 'vector', 'hand'] as const) expect(cases.some((c) => c.origin === origin)).toBe(true);
  });

  it('resolves at least 99 % of them, and every vector and hand-written one', () => {
    const failures = cases.map((c) => ({ c, why: failure(c) })).filter((f) => f.why !== null);
    const report = failures.map((f) => `${JSON.stringify(f.c.query)} (${f.c.origin}): ${f.why}`).join('\n');
    expect(failures.filter((f) => f.c.origin !== 'generated'), report).toEqual([]);
    expect(1 - failures.length / cases.length, report).toBeGreaterThanOrEqual(0.99);
  });
});
