/**
 * Solver benchmark without HTTP: solves the vroom-scripts instances through SolverPool (or in
 * process with --in-process) and prints per instance and per Solomon group the gap to the
 * best-known solution and the time.
 *
 *   npm run bench:optimization:engine -- [--class solomon|homberger_200|li_lim_100] [--objective distance|vehicles]
 *     [--time <ms per 100 visits>] [--only C101,R2] [--seed n] [--in-process] [--fast]
 *
 * Gap: against the `_distance` best-known for the distance objective (Solomon), else against the
 * vehicles-first best-known. Distances are double-precision Euclidean; travel time = distance.
 */
import { scheduleRoute } from '../../engines/optimization/schedule.ts';
import { solveInProcess } from '../../engines/optimization/solver/index.ts';
import { SolverPool } from '../../engines/optimization/solver-pool.ts';
import { bestKnown, loadClass, type InstanceClass } from '../../test/support/optimization/instances.ts';
import { toProblem } from '../../test/support/optimization/to-problem.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Row {
  name: string;
  group: string;
  gap: number;
  vehicles: number;
  bksVehicles: number;
  ms: number;
}

async function main(): Promise<void> {
  const cls = (arg('class') ?? 'solomon') as InstanceClass;
  const objective = (arg('objective') ?? (cls === 'solomon' ? 'distance' : 'vehicles')) as 'distance' | 'vehicles';
  const per100 = Number(arg('time') ?? 4000);
  const seed = Number(arg('seed') ?? 1);
  const only = arg('only')?.split(',');
  const inProcess = process.argv.includes('--in-process');
  const mode = process.argv.includes('--fast') ? 'RETURN_FAST' : 'CONSUME_ALL_AVAILABLE_TIME';
  const instances = loadClass(cls).filter((i) => !only || only.some((o) => i.name.startsWith(o)));
  const pool = inProcess ? null : new SolverPool(2);
  const rows: Row[] = [];
  console.log(`${cls} objective=${objective} time=${per100}ms/100 visits mode=${mode} ${inProcess ? 'in-process (1 thread)' : 'SolverPool(2)'}`);
  for (const inst of instances) {
    const problem = toProblem(inst, objective);
    const visits = inst.nodes.length - 1;
    const options = { timeLimitMs: Math.round((per100 * visits) / 100), searchMode: mode, seed } as const;
    const began = performance.now();
    const solution = pool ? await pool.solve(problem, options) : solveInProcess(problem, options);
    const ms = performance.now() - began;
    let distance = 0;
    let used = 0;
    solution.routes.forEach((stops, v) => {
      if (stops.length === 0) return;
      const sched = scheduleRoute(problem, v, stops);
      if (!sched) throw new Error(`${inst.name}: route ${v} infeasible`);
      distance += sched.metrics.travelDistanceMeters;
      used++;
    });
    if (solution.skipped.length > 0) console.log(`${inst.name}: ${solution.skipped.length} skipped`);
    const bks = bestKnown(inst);
    const ref = objective === 'distance' ? bks.distance ?? bks.vehicles : bks.vehicles;
    const gap = ref ? (Math.round(distance * 100) / 100 - ref.cost) / ref.cost : NaN;
    rows.push({ name: inst.name, group: inst.group, gap, vehicles: used, bksVehicles: ref?.vehicles ?? 0, ms });
    console.log(`${inst.name.padEnd(10)} ${(100 * gap).toFixed(2).padStart(6)}%  cost ${distance.toFixed(2).padStart(9)}  bks ${ref?.cost.toFixed(2)}  vehicles ${used}/${ref?.vehicles}  ${(ms / 1000).toFixed(2)}s`);
  }
  await pool?.close();
  const groups = [...new Set(rows.map((r) => r.group))];
  console.log('\ngroup  instances  mean gap  mean vehicles (bks)  mean time');
  for (const g of [...groups, 'ALL']) {
    const rs = rows.filter((r) => g === 'ALL' || r.group === g);
    const mean = (f: (r: Row) => number) => rs.reduce((a, r) => a + f(r), 0) / rs.length;
    console.log(`${g.padEnd(6)} ${String(rs.length).padStart(9)}  ${(100 * mean((r) => r.gap)).toFixed(2).padStart(7)}%  ${mean((r) => r.vehicles).toFixed(2).padStart(6)} (${mean((r) => r.bksVehicles).toFixed(2)})  ${(mean((r) => r.ms) / 1000).toFixed(2)}s`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
