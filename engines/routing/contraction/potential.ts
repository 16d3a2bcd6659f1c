/**
 * CH-potentials (Strasser & Zeitz 2021) for A* towards one destination: a backward upward search
 * from the destination's seeds over every reachable down arc gives back[x]; then
 *   potential(v) = min(back[v], min over up arcs (v→u, w) of w + potential(u)),
 * the exact distance from v to the destination in the hierarchy's lower-bound metric (Infinity
 * when unreachable), computed on demand and memoised. Up arcs only climb, so the recursion ends;
 * it runs on an explicit stack (no deep recursion on a 5M-node graph).
 *
 * Labels are shared per hierarchy: a newer chPotential on the same hierarchy retires the older
 * one, which then throws when asked.
 */
import type { Endpoint } from '../endpoints.ts';
import type { RoadGraph } from '../road-graph.ts';
import type { ContractionHierarchy } from './hierarchy.ts';
import { seedBackward } from './query.ts';
import { UpwardSearch } from './upward-search.ts';

export interface ChPotential {
  /** Lower bound of the seconds from `node` to the destination (Infinity when unreachable). */
  potential(node: number): number;
}

class PotentialSpace {
  readonly back: UpwardSearch;
  readonly value: Float64Array;
  readonly done: Uint32Array;
  stack = new Uint32Array(1024);
  stamp = 0;
  constructor(ch: ContractionHierarchy) {
    const n = ch.nodeCount;
    this.back = new UpwardSearch(ch, false);
    this.value = new Float64Array(n);
    this.done = new Uint32Array(n);
  }
  begin(): number {
    if (this.stamp === 0xffffffff) {
      this.done.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
  push(sp: number, node: number): void {
    if (sp === this.stack.length) {
      const next = new Uint32Array(this.stack.length * 2);
      next.set(this.stack);
      this.stack = next;
    }
    this.stack[sp] = node;
  }
}

const spaces = new WeakMap<ContractionHierarchy, PotentialSpace>();

class Potential implements ChPotential {
  constructor(
    private readonly ch: ContractionHierarchy,
    private readonly space: PotentialSpace,
    private readonly stamp: number,
  ) {}

  potential(node: number): number {
    const { space, stamp } = this;
    if (space.stamp !== stamp) throw new Error('CH potential used after a newer chPotential on the same hierarchy');
    const { value, done, back } = space;
    if (done[node] === stamp) return value[node]!;
    const { upFirst, upHead, upWeight } = this.ch.arrays;
    let sp = 0;
    space.push(sp++, node);
    while (sp > 0) {
      const x = space.stack[sp - 1]!;
      if (done[x] === stamp) {
        sp--;
        continue;
      }
      const start = upFirst[x]!;
      const end = upFirst[x + 1]!;
      let ready = true;
      for (let i = start; i < end; i++) {
        const h = upHead[i]!;
        if (done[h] !== stamp) {
          space.push(sp++, h);
          ready = false;
        }
      }
      if (!ready) continue;
      let best = back.at(x);
      for (let i = start; i < end; i++) {
        const c = upWeight[i]! + value[upHead[i]!]!;
        if (c < best) best = c;
      }
      value[x] = best;
      done[x] = stamp;
      sp--;
    }
    return value[node]!;
  }
}

export function chPotential(ch: ContractionHierarchy, graph: RoadGraph, destination: Endpoint): ChPotential {
  ch.assertFits(graph);
  let space = spaces.get(ch);
  if (!space) {
    space = new PotentialSpace(ch);
    spaces.set(ch, space);
  }
  const back = space.back;
  seedBackward(ch, graph, back, destination);
  while (back.heap.size > 0) back.step(false);
  return new Potential(ch, space, space.begin());
}
