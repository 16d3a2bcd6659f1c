/**
 * Judging one answer against a case's expectation.
 *
 * Selector keys pick the expected row (all must hold): id, source, source_id, layer, name
 * (exact label), hn (house number), unit (`-` = none), city, region, postcode, category,
 * at (`lng,lat`, within the case's tol_m metres).
 * Check keys are then verified on the first row the selectors pick: match_type, precision,
 * reasons (comma list, each present in match_reasons), no_reasons (none of them present).
 * List keys judge the whole answer: empty (no rows), status (HTTP status; default 200),
 * all_layer (`a|b`: every row's layer in the set), all_in (bbox `minlng,minlat,maxlng,maxlat`),
 * all_region (every row's address.region), all_category. Answers with distances (reverse,
 * nearby, places nearby) must list them in ascending order.
 */
import type { AcceptanceCase } from './case-file.ts';
import { haversine } from './source-data.ts';

/** A geocoding result or a place record, in one shape. */
export interface Row {
  id: string;
  name: string;
  layer: string;
  lng: number;
  lat: number;
  source: string;
  source_id: string;
  match_type?: string;
  precision?: string;
  match_reasons?: string[];
  category?: string;
  distance?: number;
  address?: Record<string, string>;
}

export interface Answer {
  status: number;
  rows: Row[];
  /** Raw body when it was not a list of rows (an error). */
  body: unknown;
}

export interface Outcome {
  /** 1-based rank of the first row the selectors pick; null when none (or no selectors). */
  rank: number | null;
  pass: boolean;
  top1: boolean;
  top5: boolean;
  /** Why it failed (empty when it passed). */
  problems: string[];
}

const SELECTORS = new Set(['id', 'source', 'source_id', 'layer', 'name', 'hn', 'unit', 'city', 'region', 'postcode', 'category', 'at']);
const CHECKS = new Set(['match_type', 'precision', 'reasons', 'no_reasons']);
const LIST = new Set(['empty', 'status', 'all_layer', 'all_in', 'all_region', 'all_category']);

export function validateExpectation(c: AcceptanceCase): void {
  for (const key of c.expect.keys()) {
    if (!SELECTORS.has(key) && !CHECKS.has(key) && !LIST.has(key)) throw new Error(`${c.where}: unknown expectation key ${key}`);
  }
  const hasSelector = [...c.expect.keys()].some((k) => SELECTORS.has(k));
  if (hasSelector && c.rank === null) throw new Error(`${c.where}: a case selecting a row needs a rank`);
  if (c.expect.has('at') && c.tolerance === null) throw new Error(`${c.where}: at= needs tol_m`);
  if ([...c.expect.keys()].some((k) => CHECKS.has(k)) && !hasSelector) throw new Error(`${c.where}: checks need selectors`);
}

const civic = (s: string) => s.toLowerCase().replace(/[\s#-]+/g, '');

function selects(row: Row, expect: Map<string, string>, tolerance: number | null): boolean {
  for (const [key, want] of expect) {
    switch (key) {
      case 'id': if (row.id !== want) return false; break;
      case 'source': if (row.source !== want) return false; break;
      case 'source_id': if (row.source_id !== want) return false; break;
      case 'layer': if (row.layer !== want) return false; break;
      case 'name': if (row.name !== want) return false; break;
      case 'hn': if (civic(row.address?.housenumber ?? '') !== civic(want)) return false; break;
      case 'unit':
        if (want === '-' ? row.address?.unit !== undefined : civic(row.address?.unit ?? '') !== civic(want)) return false;
        break;
      case 'city': if (row.address?.city !== want) return false; break;
      case 'region': if (row.address?.region !== want) return false; break;
      case 'postcode': if (row.address?.postcode !== want) return false; break;
      case 'category': if (row.category !== want) return false; break;
      case 'at': {
        const [lng, lat] = want.split(',').map(Number) as [number, number];
        if (haversine(lng, lat, row.lng, row.lat) > tolerance!) return false;
        break;
      }
      default: break;
    }
  }
  return true;
}

function checkRow(row: Row, expect: Map<string, string>): string[] {
  const problems: string[] = [];
  const reasons = row.match_reasons ?? [];
  const mt = expect.get('match_type');
  if (mt !== undefined && row.match_type !== mt) problems.push(`match_type ${row.match_type} ≠ ${mt}`);
  const precision = expect.get('precision');
  if (precision !== undefined && row.precision !== precision) problems.push(`precision ${row.precision} ≠ ${precision}`);
  for (const r of (expect.get('reasons') ?? '').split(',').filter(Boolean)) {
    if (!reasons.includes(r)) problems.push(`match_reasons [${reasons.join(',')}] lacks ${r}`);
  }
  for (const r of (expect.get('no_reasons') ?? '').split(',').filter(Boolean)) {
    if (reasons.includes(r)) problems.push(`match_reasons [${reasons.join(',')}] has ${r}`);
  }
  return problems;
}

function checkList(answer: Answer, c: AcceptanceCase): string[] {
  const problems: string[] = [];
  const e = c.expect;
  const status = Number(e.get('status') ?? 200);
  if (answer.status !== status) {
    problems.push(`HTTP ${answer.status} ≠ ${status}${answer.status >= 400 ? ` (${JSON.stringify(answer.body)})` : ''}`);
    return problems;
  }
  const rows = answer.rows;
  if (e.has('empty') && rows.length) problems.push(`expected no rows, got ${rows.length}`);
  const layers = e.get('all_layer');
  if (layers !== undefined) {
    const allowed = new Set(layers.split('|'));
    const bad = rows.filter((r) => !allowed.has(r.layer));
    if (bad.length) problems.push(`${bad.length} row(s) outside layers ${layers}: ${bad[0]!.id} (${bad[0]!.layer})`);
  }
  const box = e.get('all_in');
  if (box !== undefined) {
    const [x0, y0, x1, y1] = box.split(',').map(Number) as [number, number, number, number];
    const bad = rows.filter((r) => r.lng < x0 || r.lng > x1 || r.lat < y0 || r.lat > y1);
    if (bad.length) problems.push(`${bad.length} row(s) outside bbox: ${bad[0]!.id} at ${bad[0]!.lng},${bad[0]!.lat}`);
  }
  const region = e.get('all_region');
  if (region !== undefined) {
    const bad = rows.filter((r) => r.address?.region !== undefined && r.address.region !== region);
    if (bad.length) problems.push(`${bad.length} row(s) in another region: ${bad[0]!.id} (${bad[0]!.address?.region})`);
  }
  const category = e.get('all_category');
  if (category !== undefined) {
    const allowed = new Set(category.split('|'));
    const bad = rows.filter((r) => !allowed.has(r.category ?? ''));
    if (bad.length) problems.push(`${bad.length} row(s) of another category: ${bad[0]!.id} (${bad[0]!.category})`);
  }
  const distances = rows.map((r) => r.distance).filter((d): d is number => d !== undefined);
  if (distances.length && distances.length !== rows.length) problems.push('distance on some rows only');
  for (let i = 1; i < distances.length; i++) {
    if (distances[i]! < distances[i - 1]!) {
      problems.push(`distances not ascending at rank ${i + 1} (${distances[i - 1]} then ${distances[i]})`);
      break;
    }
  }
  return problems;
}

export function judge(c: AcceptanceCase, answer: Answer): Outcome {
  const listProblems = checkList(answer, c);
  const hasSelector = [...c.expect.keys()].some((k) => SELECTORS.has(k));
  if (!hasSelector) {
    const ok = listProblems.length === 0;
    return { rank: null, pass: ok, top1: ok, top5: ok, problems: listProblems };
  }
  const index = answer.status === 200 ? answer.rows.findIndex((r) => selects(r, c.expect, c.tolerance)) : -1;
  const rank = index < 0 ? null : index + 1;
  const problems = [...listProblems];
  if (rank === null) {
    if (answer.status === 200) problems.push(`expected row not among ${answer.rows.length} result(s)`);
  } else {
    problems.push(...checkRow(answer.rows[index]!, c.expect));
    if (rank > c.rank!) problems.push(`expected row at rank ${rank} > ${c.rank}`);
  }
  const clean = problems.filter((p) => !p.startsWith('expected row at rank')).length === 0 && rank !== null;
  return { rank, pass: problems.length === 0, top1: clean && rank === 1, top5: clean && rank! <= 5, problems };
}
