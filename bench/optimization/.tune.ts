import { toProblem } from './engine.ts';
import { bestKnown, loadInstance } from './instances.ts';
import { solveInProcess } from '../../engines/optimization/solver/index.ts';
const names = ['R104', 'R109', 'R110', 'R112', 'RC102', 'RC103', 'R210', 'RC204', 'RC201', 'R103'];
const t0 = Number(process.env.T0 ?? 3), tf = Number(process.env.TF ?? 0.03), cbar = Number(process.env.CBAR ?? 10);
let sum = 0;
for (const n of names) {
  const inst = loadInstance('solomon', n);
  const pb = toProblem(inst, 'distance');
  const sol = solveInProcess(pb, { timeLimitMs: Number(process.env.MS ?? 2000), searchMode: 'CONSUME_ALL_AVAILABLE_TIME', seed: Number(process.env.SEED ?? 1), t0, tf, sisr: { meanRemoved: cbar } });
  const gap = (sol.cost - bestKnown(inst).distance!.cost) / bestKnown(inst).distance!.cost;
  sum += gap;
}
console.log(`t0=${t0} tf=${tf} cbar=${cbar} mean gap ${(100 * sum / names.length).toFixed(2)}%`);
