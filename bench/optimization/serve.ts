/**
 * `npm run bench:optimization`: POST /optimize through `canmap serve` (key auth, plan limits,
 * metering) on the Solomon, Gehring–Homberger 200 and Li–Lim 100 instances, converted to requests
 * with own Euclidean matrices (to-request.ts), one request at a time (the solver uses both cores).
 * Every answer goes through the independent checker (checker.ts); distances are compared with the
 * best-known solutions of BKS.json (rounded to 0.01 like the literature's values):
 *   - objective 'distance' (cost = travelled distance) against the Solomon `<name>_distance` keys;
 *   - objective 'vehicles' (a 1e6 fixed cost per used vehicle) against the vehicles-first keys:
 *     vehicles first, then the distance gap.
 * Solomon and Li–Lim get the default time budget (no timeout: min(60, max(2, ceil(visits/25))) s on
 * the growth plan); Gehring–Homberger gets timeout "30s". Order independence: the first objective of
 * each instance is also solved with its shipments shuffled (`--shuffles` seeds) and the spread of
 * the distance (max−min)/min over all orders is printed.
 *
 *   npm run bench:optimization [-- --classes solomon,homberger_200,li_lim_100] [--limit N] [--instances C101,R201]
 *                                 [--objective distance|vehicles|both] [--shuffles 3] [--gh-timeout 30] [--out results.json] [--json]
 *                                 [--search-mode RETURN_FAST|CONSUME_ALL_AVAILABLE_TIME]   (default: the API's, RETURN_FAST)
 * --limit N takes N instances per class spread over its groups; --objective defaults to both for
 * Solomon and to vehicles for the classes without distance-only best-known values. --url and --key
 * use an API already running instead of starting one on a database of its own.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { REPO_ROOT } from '../../test/support/paths.ts';
import { freePort, startCanmap } from '../support/processes.ts';
import { checkSolution, type CheckResult } from '../../test/support/optimization/checker.ts';
import { bestKnown, INSTANCE_CLASSES, listInstances, loadInstance, visitCount, type Instance, type InstanceClass } from '../../test/support/optimization/instances.ts';
import { OBJECTIVES, toRequest, type Objective } from '../../test/support/optimization/to-request.ts';

const PLAN_LONGEST_SOLVE = 60; // growth plan (volume 1)
const TARGETS: { cls: InstanceClass; objective: Objective; gap: number; note: string }[] = [
  { cls: 'solomon', objective: 'distance', gap: 1.5, note: 'default budget (4 s); VROOM 1.63 % at 0.36 s on 4 cores' },
  { cls: 'solomon', objective: 'vehicles', gap: 1.5, note: 'default budget (4 s), vehicles-first keys' },
  { cls: 'homberger_200', objective: 'vehicles', gap: 3, note: 'timeout 30 s, vehicles-first keys' },
  { cls: 'li_lim_100', objective: 'vehicles', gap: 2, note: 'default budget (5 s), vehicles-first keys' },
];

const { values } = parseArgs({
  options: {
    classes: { type: 'string', default: INSTANCE_CLASSES.join(',') },
    limit: { type: 'string' },
    instances: { type: 'string' },
    objective: { type: 'string', default: 'auto' },
    shuffles: { type: 'string', default: '3' },
    'gh-timeout': { type: 'string', default: '30' },
    'search-mode': { type: 'string' },
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
    url: { type: 'string' },
    key: { type: 'string' },
  },
});
const classes = values.classes.split(',').map((c) => {
  if (!INSTANCE_CLASSES.includes(c as InstanceClass)) throw new Error(`--classes: unknown class ${c} (${INSTANCE_CLASSES.join(', ')})`);
  return c as InstanceClass;
});
const shuffles = Number(values.shuffles);
const limit = values.limit === undefined ? Infinity : Number(values.limit);
const ghTimeout = Number(values['gh-timeout']);
if (!Number.isInteger(shuffles) || shuffles < 0) throw new Error('--shuffles must be a whole number ≥ 0');
if (!(limit >= 1)) throw new Error('--limit must be ≥ 1');
if (!(ghTimeout > 0)) throw new Error('--gh-timeout must be positive seconds');
if (!['auto', 'both', ...OBJECTIVES].includes(values.objective)) throw new Error('--objective must be distance, vehicles or both');
const searchMode = values['search-mode'] as 'RETURN_FAST' | 'CONSUME_ALL_AVAILABLE_TIME' | undefined;
if (searchMode !== undefined && searchMode !== 'RETURN_FAST' && searchMode !== 'CONSUME_ALL_AVAILABLE_TIME') throw new Error('--search-mode must be RETURN_FAST or CONSUME_ALL_AVAILABLE_TIME');
const only = values.instances ? new Set(values.instances.split(',')) : null;
const log = (line: string) => process.stderr.write(`${line}\n`);

function pick(cls: InstanceClass): string[] {
  const names = listInstances(cls).filter((n) => !only || only.has(n));
  if (names.length <= limit) return names;
  return Array.from({ length: limit }, (_, i) => names[Math.floor((i * names.length) / limit)]!);
}

function objectivesOf(inst: Instance): Objective[] {
  if (values.objective === 'both') return [...OBJECTIVES];
  if (values.objective !== 'auto') return [values.objective as Objective];
  return bestKnown(inst).distance ? ['distance', 'vehicles'] : ['vehicles'];
}

const budgetOf = (inst: Instance) => (inst.class === 'homberger_200'
  ? Math.min(PLAN_LONGEST_SOLVE, ghTimeout)
  : Math.min(PLAN_LONGEST_SOLVE, Math.max(2, Math.ceil(visitCount(inst) / 25))));

interface Run {
  name: string;
  cls: InstanceClass;
  group: string;
  objective: Objective;
  budget: number;
  seconds: number;
  status: number;
  error?: string;
  check?: CheckResult;
  bks: { cost: number; vehicles: number } | null;
  /** Percent over the best-known distance (distance rounded to 0.01 first). */
  gap?: number;
  extraVehicles?: number;
  /** The first failure among the shuffled orders. */
  shuffleError?: string;
  /** Distances and vehicle counts of the orders solved (the first is the instance order). */
  orderDistances: number[];
  orderVehicles: number[];
  spread?: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const pct = (x: number | undefined) => (x === undefined ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(2)} %`);
const ok = (r: Run) => r.status === 200 && r.check !== undefined && r.check.violations.length === 0;

if ((values.url === undefined) !== (values.key === undefined)) throw new Error('--url and --key go together');
const env = values.url ? null : await createTestEnv('bench_optimization');
const pool = env ? createPool(env.config.databaseUrl, 2) : null;
let server: ReturnType<typeof startCanmap> | null = null;
try {
  let url = values.url?.replace(/\/$/, '') ?? '';
  let key = values.key ?? '';
  if (env && pool) {
    key = (await createKey(pool, { plan: 'growth' })).key;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = startCanmap(['serve'], { ...env.env, PORT: String(port), BASE_URL: url, LOG_LEVEL: 'warn' });
  }
  const post = (body: string) => fetch(`${url}/optimize`, { method: 'POST', body, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  for (let up = false; !up;) {
    await new Promise((r) => setTimeout(r, 250));
    if (server && server.child.exitCode !== null) throw new Error(`canmap serve exited:\n${server.output()}`);
    up = await post(JSON.stringify({ solvingMode: 'VALIDATE_ONLY', model: {} })).then(async (r) => {
      if (r.status === 404) throw new Error(`POST /optimize answers 404: the route is not served yet (${await r.text()})`);
      return true;
    }, () => false);
  }

  const solve = async (body: Record<string, unknown>) => {
    const text = JSON.stringify(body);
    for (;;) {
      const started = performance.now();
      let res: Response, answer: string;
      try {
        res = await post(text);
        answer = await res.text();
      } catch (e) {
        return { status: 0, seconds: (performance.now() - started) / 1000, json: null, text: `request failed: ${(e as Error).message}` };
      }
      const seconds = (performance.now() - started) / 1000;
      if (res.status === 429 && res.headers.get('retry-after')) {
        await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after'))));
        continue;
      }
      let json: unknown = null;
      try { json = JSON.parse(answer); } catch { /* reported below */ }
      return { status: res.status, seconds, json, text: answer };
    }
  };

  const runs: Run[] = [];
  for (const cls of classes) {
    const names = pick(cls);
    log(`${cls}: ${names.length} instances`);
    for (const name of names) {
      const inst = loadInstance(cls, name);
      const budget = budgetOf(inst);
      const timeout = cls === 'homberger_200' ? `${ghTimeout}s` : undefined;
      for (const [oi, objective] of objectivesOf(inst).entries()) {
        const known = bestKnown(inst);
        const bks = objective === 'distance' ? known.distance : known.vehicles;
        const run: Run = { name, cls, group: inst.group, objective, budget, seconds: 0, status: 0, bks, orderDistances: [], orderVehicles: [] };
        const orders = oi === 0 ? shuffles + 1 : 1;
        for (let s = 0; s < orders; s++) {
          const req = toRequest(inst, { objective, shuffle: s, ...(timeout ? { timeout } : {}), ...(searchMode ? { searchMode } : {}) });
          const answer = await solve(req.body);
          let check: CheckResult | undefined;
          let error: string | undefined;
          if (answer.status !== 200 || answer.json === null) error = `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`;
          else {
            try {
              check = checkSolution(req.body, answer.json);
            } catch (e) {
              error = `checker could not read the answer: ${(e as Error).message}`;
            }
          }
          if (s === 0) Object.assign(run, { seconds: answer.seconds, status: answer.status, error, check });
          else if (error || check!.violations.length) run.shuffleError ??= `shuffle ${s}: ${error ?? check!.violations[0]}`;
          if (check) {
            run.orderDistances.push(check.distanceMeters);
            run.orderVehicles.push(check.usedVehicles);
          }
        }
        if (ok(run) && bks) {
          run.gap = (100 * (round2(run.check!.distanceMeters) - bks.cost)) / bks.cost;
          if (objective === 'vehicles') run.extraVehicles = run.check!.usedVehicles - bks.vehicles;
        }
        if (run.orderDistances.length > 1) {
          const d = run.orderDistances;
          run.spread = (100 * (Math.max(...d) - Math.min(...d))) / Math.min(...d);
        }
        runs.push(run);
        const c = run.check;
        const verdict = [run.error ?? (c!.violations.length ? `${c!.violations.length} VIOLATIONS: ${c!.violations[0]}` : 'checked ok'), run.shuffleError]
          .filter(Boolean).join('; ');
        const vehicleRange = new Set(run.orderVehicles).size > 1 ? `, veh ${Math.min(...run.orderVehicles)}–${Math.max(...run.orderVehicles)}` : '';
        log([
          name.padEnd(9), objective.padEnd(8),
          `veh ${c?.usedVehicles ?? '—'}/${bks?.vehicles ?? '—'}`.padEnd(11),
          `dist ${c ? c.distanceMeters.toFixed(2) : '—'} vs ${bks?.cost.toFixed(2) ?? '—'}`.padEnd(26),
          `gap ${pct(run.gap)}`.padEnd(13),
          `${run.seconds.toFixed(2)} s / ${budget} s`.padEnd(15),
          run.spread !== undefined ? `spread ${run.spread.toFixed(2)} % over ${run.orderDistances.length} orders${vehicleRange}`.padEnd(30) : ''.padEnd(30),
          verdict,
        ].join(' '));
      }
    }
  }
  if (values.out) await writeFile(values.out, JSON.stringify(runs.map(({ check, ...r }) => ({ ...r, violations: check?.violations })), null, 1));

  // Per class, per group and overall, per objective.
  const stats = (list: Run[]) => {
    // Vehicles first: a solution with more vehicles than the best known is worse whatever its
    // distance, so it is counted apart and left out of the distance gaps.
    const compared = list.filter((r) => r.gap !== undefined);
    const scored = compared.filter((r) => (r.extraVehicles ?? 0) <= 0);
    const gaps = scored.map((r) => r.gap!);
    const spreads = list.filter((r) => r.spread !== undefined).map((r) => r.spread!);
    return {
      n: list.length,
      failed: list.filter((r) => !ok(r) || r.shuffleError).length,
      avg: gaps.length ? gaps.reduce((a, b) => a + b, 0) / gaps.length : undefined,
      worst: gaps.length ? gaps.reduce((a, b) => Math.max(a, b), -Infinity) : undefined,
      worstName: scored.reduce<Run | null>((w, r) => (!w || r.gap! > w.gap! ? r : w), null)?.name,
      scored: scored.length,
      extra: compared.filter((r) => (r.extraVehicles ?? 0) > 0).length,
      fewer: compared.filter((r) => (r.extraVehicles ?? 0) < 0).length,
      vehicleDelta: compared.reduce((a, r) => a + (r.extraVehicles ?? 0), 0),
      meanSeconds: list.reduce((a, r) => a + r.seconds, 0) / Math.max(1, list.length),
      maxSeconds: list.reduce((a, r) => Math.max(a, r.seconds), 0),
      overBudget: list.filter((r) => r.seconds > r.budget + 1).length,
      spreadAvg: spreads.length ? spreads.reduce((a, b) => a + b, 0) / spreads.length : undefined,
      spreadMax: spreads.length ? Math.max(...spreads) : undefined,
    };
  };
  const lines = ['| class | objective | instances | failed | avg gap | worst gap | vehicles vs BKS | time mean / max | budget | over budget +1 s | order spread avg / max |',
    '|---|---|---|---|---|---|---|---|---|---|---|'];
  for (const cls of classes) {
    for (const objective of OBJECTIVES) {
      const mine = runs.filter((r) => r.cls === cls && r.objective === objective);
      if (!mine.length) continue;
      const groups = [...new Set(mine.map((r) => r.group))];
      for (const g of [...groups, 'all']) {
        const list = g === 'all' ? mine : mine.filter((r) => r.group === g);
        const s = stats(list);
        const budgets = [...new Set(list.map((r) => r.budget))].join('/');
        lines.push(`| ${cls}${g === 'all' ? ' (all)' : ` ${g}`} | ${objective} | ${s.n} | ${s.failed} | ${pct(s.avg)} | ${pct(s.worst)}${s.worstName ? ` (${s.worstName})` : ''}`
          + ` | ${objective === 'vehicles' ? `${s.vehicleDelta >= 0 ? '+' : ''}${s.vehicleDelta} (${s.extra} more, ${s.fewer} fewer)` : '—'}`
          + ` | ${s.meanSeconds.toFixed(2)} / ${s.maxSeconds.toFixed(2)} s | ${budgets} s | ${s.overBudget}`
          + ` | ${s.spreadAvg === undefined ? '—' : `${s.spreadAvg.toFixed(2)} / ${s.spreadMax!.toFixed(2)} %`} |`);
      }
    }
  }
  const summary = ['| target | measured | verdict |', '|---|---|---|'];
  for (const t of TARGETS) {
    const list = runs.filter((r) => r.cls === t.cls && r.objective === t.objective);
    if (!list.length) continue;
    const s = stats(list);
    const met = s.avg !== undefined && s.avg <= t.gap && s.failed === 0 && s.overBudget === 0 && s.extra === 0;
    summary.push(`| ${t.cls} ${t.objective}: avg gap ≤ ${t.gap} % (${t.note}) | ${pct(s.avg)} over ${s.scored} of ${s.n}`
      + `${s.failed ? `, ${s.failed} failed` : ''}${t.objective === 'vehicles' ? `, ${s.extra} with more vehicles than BKS` : ''}, ${s.overBudget} over budget`
      + ` | ${met ? 'met' : s.avg !== undefined && s.avg <= t.gap && s.failed === 0 && s.overBudget === 0 ? 'NOT met: gap within target, vehicles above BKS' : 'NOT met'} |`);
  }
  const spreads = stats(runs);
  if (spreads.spreadMax !== undefined) {
    summary.push(`| results independent of shipment order | distance spread avg ${spreads.spreadAvg!.toFixed(2)} %, max ${spreads.spreadMax.toFixed(2)} % over ${shuffles + 1} orders | ${spreads.spreadMax < 1e-6 ? 'identical' : 'differs'} |`);
  }
  console.log([
    '',
    `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
    `machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}; load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')};`
      + ` one request at a time over HTTP to ${server ? 'canmap serve (1 process), growth-plan key' : url}; times are HTTP round trips`,
    'gaps: distance rounded to 0.01 against BKS.json (distance objective: Solomon `_distance` keys; vehicles objective: vehicles-first keys; an instance using more vehicles than BKS shows its distance gap on its line but is left out of the class gaps and counted under vehicles vs BKS)',
    '',
    ...lines,
    '',
    ...summary,
  ].join('\n'));
  if (values.json) {
    // One object last: per class and objective, the figures the targets are stated in.
    const classesJson = classes.flatMap((cls) => OBJECTIVES.flatMap((objective) => {
      const list = runs.filter((r) => r.cls === cls && r.objective === objective);
      if (!list.length) return [];
      const s = stats(list);
      return [{
        class: cls, objective, searchMode: searchMode ?? 'RETURN_FAST', instances: s.n, failed: s.failed, at_best_known_fleet: objective === 'vehicles' ? s.n - s.failed - s.extra : undefined,
        more_vehicles: objective === 'vehicles' ? list.filter((r) => (r.extraVehicles ?? 0) > 0).map((r) => `${r.name} +${r.extraVehicles}`) : undefined,
        avg_gap_pct: s.avg, worst_gap_pct: s.worst, worst: s.worstName, mean_s: s.meanSeconds, max_s: s.maxSeconds, over_budget: s.overBudget,
        order_spread_max_pct: s.spreadMax,
      }];
    }));
    console.log(JSON.stringify({ load: os.loadavg(), cores: os.availableParallelism(), node: process.version, classes: classesJson }));
  }
} finally {
  await server?.stop();
  await pool?.end();
  await env?.cleanup();
}
