/** The fleet-optimization search (see search.ts); runs in process, SolverPool runs it on workers. */
export { solveInProcess, type SearchOptions, type SearchStats } from './search.ts';
