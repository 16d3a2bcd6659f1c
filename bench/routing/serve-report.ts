/**
 * The printed table of the serving benchmark: one row per load run, with its target when it has
 * one (the targets are for 16 connections; a 1-connection row shows the time of one answer alone).
 */
import type { RequestsResult } from './load-requests.ts';
import { ms, ratio } from './timing.ts';

export interface LoadRun {
  /** The run's name in --json output: short, long, mixed, isochrone, matrix. */
  name: string;
  label: string;
  connections: number;
  result: RequestsResult;
  /** p95 target, ms. */
  targetMs: number | null;
  /** CPU seconds of the API process and of this process (autocannon) during the run. */
  serverCpu: number;
  loaderCpu: number;
}

const count = (r: RequestsResult, match: (status: number) => boolean) =>
  [...r.statuses].filter(([s]) => match(s)).reduce((sum, [, n]) => sum + n, 0);

export function loadTable(runs: readonly LoadRun[], seconds: number): string[] {
  return [
    '| request | connections | req/s | p50 | p95 | p99 | 2xx | 422 | other | mean size | target p95 | p95 / target | API cores | API CPU per answer | loader cores |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(({ label, connections, result: r, targetMs, serverCpu, loaderCpu }) => {
      const ok = count(r, (s) => s >= 200 && s < 300);
      const unprocessable = count(r, (s) => s === 422);
      const other = r.requests - ok - unprocessable + r.errors;
      const verdict = targetMs === null || connections !== 16 ? ['', ''] : [`≤ ${targetMs} ms`, `${ratio(r.p95, targetMs)} ${r.p95 <= targetMs ? 'met' : 'NOT met'}`];
      const size = r.meanBytes >= 10_000 ? `${(r.meanBytes / 1000).toFixed(0)} kB` : `${r.meanBytes.toFixed(0)} B`;
      return `| ${[label, connections, r.rps.toFixed(0), ms(r.p50), ms(r.p95), ms(r.p99), ok, unprocessable, other, size, ...verdict,
        (serverCpu / seconds).toFixed(2), `${cpuPerAnswerUs(r, serverCpu).toFixed(0)} µs`, (loaderCpu / seconds).toFixed(2)].join(' | ')} |`;
    }),
  ];
}

/** The API's CPU microseconds per answer given in the run. */
const cpuPerAnswerUs = (r: RequestsResult, serverCpu: number) => (serverCpu * 1e6) / Math.max(1, r.requests);

/** The --json object: one entry per run at 16 connections (1-connection runs carry their count in the name). */
export function loadJson(runs: readonly LoadRun[], connections: number): string {
  const round = (v: number, digits: number) => Number(v.toFixed(digits));
  return JSON.stringify({
    runs: runs.map(({ name, connections: c, result: r, serverCpu }) => ({
      name: c === connections ? name : `${name}@${c}`,
      rps: round(r.rps, 1), p50_ms: round(r.p50, 2), p95_ms: round(r.p95, 2), p99_ms: round(r.p99, 2),
      cpu_us_per_answer: round(cpuPerAnswerUs(r, serverCpu), 0),
    })),
  });
}

/** Non-2xx statuses other than 422 with their counts, for the notes under the table. */
export function otherStatuses(runs: readonly LoadRun[]): string[] {
  return runs.flatMap(({ label, result }) => {
    const odd = [...result.statuses].filter(([s]) => (s < 200 || s >= 300) && s !== 422);
    return odd.length || result.errors ? [`  ${label}: ${odd.map(([s, n]) => `${n}× ${s}`).join(', ')}${result.errors ? ` ${result.errors} connection errors/timeouts` : ''}`] : [];
  });
}
