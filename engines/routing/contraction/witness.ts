/**
 * Witness searches of the build: a Dijkstra from one neighbour of the node being contracted,
 * avoiding that node, over the uncontracted graph. It stops at the distance bound, after a
 * settled-node limit, or once every marked target is settled. A target's tentative label is
 * already the length of a real path, so `distance` may be used before the target settles.
 */
import { MinHeap } from '../heap.ts';
import type { ArcLists, ArcStore } from './build-graph.ts';

export class WitnessSearch {
  private readonly dist: Float64Array;
  private readonly seen: Uint32Array;
  private readonly target: Uint32Array;
  private readonly heap = new MinHeap(1024);
  private stamp = 0;
  private targetsLeft = 0;

  constructor(nodes: number, private readonly arcs: ArcStore, private readonly out: ArcLists) {
    this.dist = new Float64Array(nodes);
    this.seen = new Uint32Array(nodes);
    this.target = new Uint32Array(nodes);
  }

  begin(): void {
    if (this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.target.fill(0);
      this.stamp = 0;
    }
    this.stamp++;
    this.heap.clear();
    this.targetsLeft = 0;
  }

  markTarget(v: number): void {
    if (this.target[v] !== this.stamp) {
      this.target[v] = this.stamp;
      this.targetsLeft++;
    }
  }

  run(source: number, avoid: number, maxDist: number, settleLimit: number): void {
    const { dist, seen, target, heap, arcs, out } = this;
    const stamp = this.stamp;
    dist[source] = 0;
    seen[source] = stamp;
    heap.push(0, source);
    let settled = 0;
    while (heap.size > 0) {
      const key = heap.peekKey();
      const x = heap.pop();
      if (key > dist[x]!) continue;
      if (key > maxDist) break;
      if (target[x] === stamp && --this.targetsLeft === 0) break;
      if (++settled > settleLimit) break;
      const start = out.start[x]!;
      const end = start + out.size[x]!;
      const pool = out.pool;
      for (let i = start; i < end; i++) {
        const arc = pool[i]!;
        const h = arcs.head[arc]!;
        if (h === avoid) continue;
        const d = key + arcs.weight[arc]!;
        if (d > maxDist) continue;
        if (seen[h] !== stamp || d < dist[h]!) {
          seen[h] = stamp;
          dist[h] = d;
          heap.push(d, h);
        }
      }
    }
  }

  /** The shortest path found to v that avoids the contracted node (Infinity when none). */
  distance(v: number): number {
    return this.seen[v] === this.stamp ? this.dist[v]! : Infinity;
  }
}
