/**
 * Runs acceptance cases through the HTTP API (as a client would) and reports top-1 / top-5 and
 * pass rates by category.
 */
import type { AcceptanceCase } from './case-file.ts';
import { judge, validateExpectation, type Answer, type Outcome, type Row } from './expectation.ts';

export interface Get {
  (url: string): Promise<{ status: number; body: unknown }>;
}

export interface CaseResult {
  case: AcceptanceCase;
  url: string;
  answer: Answer;
  outcome: Outcome;
}

interface PlaceRecordJson {
  id: string; source_id: string; name: string; category: string; coordinates: [number, number];
  address?: Record<string, string>; distance?: number; source: string;
}

function toRows(endpoint: string, body: unknown): Row[] | null {
  if (endpoint.startsWith('/places')) {
    const data = (body as { data?: PlaceRecordJson[] } | null)?.data;
    if (!Array.isArray(data)) return null;
    return data.map((p) => ({
      id: p.id, name: p.name, layer: 'poi', lng: p.coordinates[0], lat: p.coordinates[1], source: p.source, source_id: p.source_id,
      category: p.category, ...(p.distance !== undefined ? { distance: p.distance } : {}), ...(p.address ? { address: p.address } : {}),
    }));
  }
  return Array.isArray(body) ? (body as Row[]) : null;
}

export function caseUrl(c: AcceptanceCase): string {
  const path = c.endpoint.split('/').map((seg) => encodeURIComponent(decodeURIComponent(seg))).join('/');
  const qs = c.params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function runCases(cases: AcceptanceCase[], get: Get): Promise<CaseResult[]> {
  for (const c of cases) validateExpectation(c);
  const out: CaseResult[] = [];
  for (const c of cases) {
    const url = caseUrl(c);
    const res = await get(url);
    const rows = res.status === 200 ? toRows(c.endpoint, res.body) : null;
    const answer: Answer = { status: res.status, rows: rows ?? [], body: res.body };
    out.push({ case: c, url, answer, outcome: judge(c, answer) });
  }
  return out;
}

export interface CategoryStats { category: string; n: number; pass: number; top1: number; top5: number }

export function summarize(results: CaseResult[]): { categories: CategoryStats[]; overall: CategoryStats } {
  const by = new Map<string, CategoryStats>();
  const overall: CategoryStats = { category: 'overall', n: 0, pass: 0, top1: 0, top5: 0 };
  for (const r of results) {
    const s = by.get(r.case.category) ?? { category: r.case.category, n: 0, pass: 0, top1: 0, top5: 0 };
    by.set(r.case.category, s);
    for (const t of [s, overall]) {
      t.n++;
      if (r.outcome.pass) t.pass++;
      if (r.outcome.top1) t.top1++;
      if (r.outcome.top5) t.top5++;
    }
  }
  return { categories: [...by.values()], overall };
}

const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(1)}%` : '-');

export function formatTable(results: CaseResult[]): string {
  const { categories, overall } = summarize(results);
  const rows = [...categories, overall].map((s) => [s.category, String(s.n), pct(s.pass, s.n), pct(s.top1, s.n), pct(s.top5, s.n)]);
  const head = ['category', 'cases', 'pass', 'top-1', 'top-5'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(0, -1).map(line), widths.map((w) => '-'.repeat(w)).join('  '), line(rows[rows.length - 1]!)].join('\n');
}

function describeRow(r: Row, i: number): string {
  const reasons = r.match_reasons?.length ? ` [${r.match_reasons.join(',')}]` : '';
  const distance = r.distance !== undefined ? ` ${r.distance} m` : '';
  return `#${i + 1} ${r.id} "${r.name}" ${r.layer}${r.match_type ? ` ${r.match_type}` : ''}${reasons}${distance}`;
}

export function formatFailures(results: CaseResult[]): string {
  const failed = results.filter((r) => !r.outcome.pass);
  if (!failed.length) return 'no failing cases';
  return failed.map((r) => {
    const top = r.answer.rows.slice(0, 3).map(describeRow).join(' | ') || '(no rows)';
    return `✗ [${r.case.category}] GET ${decodeURIComponent(r.url)}\n    expect ${r.case.expectText} (rank ≤ ${r.case.rank ?? '-'}) — ${r.case.where}\n    ${r.outcome.problems.join('; ')}\n    got ${top}`;
  }).join('\n');
}
