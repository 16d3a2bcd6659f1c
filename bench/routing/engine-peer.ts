/**
 * pgRouting's side of the engine benchmark on one graph: the edges loaded once, one untimed
 * warm-up call, then pgr_bdDijkstra for each pair over the whole table and over the pair's
 * bounding box, with its agg_cost checked against our hierarchy's node-to-node distance. Where
 * they differ, pgr_dijkstra referees: pgRouting 3.4.2's pgr_bdDijkstra returns a costlier path
 * than the optimum on a few directed pairs (2 of 50 on Vancouver), which pgr_dijkstra and ours find.
 */
import type { BenchNetwork } from './bench-network.ts';
import type { NodePair } from './node-pairs.ts';
import { openPgrPeer } from './pgrouting-peer.ts';
import { summarize, type Timings } from './timing.ts';

/** Relative agreement required between pgr agg_cost and the CH distance (both Float64 sums of the same weights). */
export const COST_TOLERANCE = 1e-6;

export interface PeerEngine {
  version: string;
  rows: number;
  loadSeconds: number;
  full: Timings;
  fullMs: number[];
  box: Timings;
  boxMargin: number;
  /** Pairs whose bounding-box answer has the whole table's cost. */
  boxExact: number;
  /** Largest |agg_cost − CH distance| / CH distance over the whole-table answers. */
  maxRelDiff: number;
  /** Pairs where pgr_bdDijkstra's path costs more than ours and pgr_dijkstra agrees with ours: the peer's miss. */
  peerSuboptimal: number;
  /** Pairs where even pgr_dijkstra disagrees with ours. */
  disagreements: number;
}

export async function timePeer(net: BenchNetwork, pairs: readonly NodePair[], boxMargin: number, log: (line: string) => void): Promise<PeerEngine> {
  log(`${net.label}: loading the edges into PostgreSQL with pgRouting ...`);
  const peer = await openPgrPeer(net);
  try {
    log(`${net.label}: ${peer.rows.toLocaleString('en-CA')} edge rows in ${peer.loadSeconds.toFixed(1)} s; pgr_bdDijkstra on ${pairs.length} pairs ...`);
    await peer.route(pairs[0]!.origin, pairs[0]!.destination);
    const fullMs: number[] = [];
    const boxMs: number[] = [];
    let maxRelDiff = 0;
    let peerSuboptimal = 0;
    let disagreements = 0;
    const agrees = (cost: number | null, bound: number) => cost !== null && Math.abs(cost - bound) <= COST_TOLERANCE * bound;
    let boxExact = 0;
    for (const [i, pair] of pairs.entries()) {
      const full = await peer.route(pair.origin, pair.destination);
      const box = await peer.routeInBox(pair.origin, pair.destination, boxMargin);
      fullMs.push(full.ms);
      boxMs.push(box.ms);
      if (agrees(full.cost, pair.bound)) maxRelDiff = Math.max(maxRelDiff, Math.abs(full.cost! - pair.bound) / pair.bound);
      else {
        const referee = await peer.dijkstra(pair.origin, pair.destination);
        const missed = full.cost !== null && full.cost > pair.bound && agrees(referee.cost, pair.bound);
        if (missed) peerSuboptimal++;
        else disagreements++;
        log(`  pair ${i} (${pair.origin} → ${pair.destination}): pgr_bdDijkstra ${full.cost}, pgr_dijkstra ${referee.cost}, hierarchy ${pair.bound}`);
      }
      if (agrees(box.cost, pair.bound)) boxExact++;
      if (pairs.length <= 20) log(`  pair ${i + 1}/${pairs.length}: ${full.ms.toFixed(0)} ms whole table, ${box.ms.toFixed(0)} ms in the box`);
    }
    return {
      version: peer.version, rows: peer.rows, loadSeconds: peer.loadSeconds,
      full: summarize(fullMs), fullMs, box: summarize(boxMs), boxMargin, boxExact, maxRelDiff, peerSuboptimal, disagreements,
    };
  } finally {
    await peer.drop();
  }
}
