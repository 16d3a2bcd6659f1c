import { toProblem } from './engine.ts';
import { loadInstance } from './instances.ts';
import { SolverPool } from '../../engines/optimization/solver-pool.ts';
const pool = new SolverPool(2);
await new Promise((r) => setTimeout(r, 1500));
const pb = toProblem(loadInstance('solomon', 'R101'), 'distance');
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  await pool.solve(pb, { timeLimitMs: 2000, searchMode: 'CONSUME_ALL_AVAILABLE_TIME', seed: i });
  console.log('pool solve', (performance.now() - t).toFixed(0));
}
await pool.close();
