import { toProblem } from './engine.ts';
import { loadInstance } from './instances.ts';
import { solveInProcess } from '../../engines/optimization/solver/index.ts';
const [cls, name, ms, mode] = process.argv.slice(2);
const pb = toProblem(loadInstance(cls as any, name!), 'distance');
for (const v of pb.vehicles) { v.costPerHour = Number(process.env.CPH ?? 0); if (process.env.BREAK) v.breaks = [{ earliestStart: 100, latestStart: 400, minDuration: 10 }]; }
const stats = { iterations: 0, elapsedMs: 0 };
const sol = solveInProcess(pb, { timeLimitMs: Number(ms), searchMode: (mode ?? 'CONSUME_ALL_AVAILABLE_TIME') as any, seed: 1 }, stats);
console.log(name, 'cost', sol.cost.toFixed(2), 'skipped', sol.skipped.length, 'routes', sol.routes.filter((r) => r.length).length, 'iters', stats.iterations, 'elapsed', stats.elapsedMs.toFixed(0));
