/**
 * Many-to-many CH queries with buckets (Knopp et al. 2007): one backward upward search per
 * destination leaves (destination, distance, how it got there) in a bucket at every node it
 * settles unstalled; one forward upward search per origin then scans the buckets of the nodes it
 * settles. Each pair gives what chRoute gives for it (bound, unpacked edges, fractions) or null.
 */
import type { Endpoint } from '../endpoints.ts';
import type { RoadGraph } from '../road-graph.ts';
import type { ContractionHierarchy } from './hierarchy.ts';
import { directRouteOf, directTrip, routeOf, seedBackward, seedForward, type ChRoute } from './query.ts';
import { unpackArc, unpackForward } from './unpack.ts';
import { searchPairOf, seedPosition } from './upward-search.ts';

class Buckets {
  readonly head: Int32Array;
  readonly headStamp: Uint32Array;
  /** Entry of the node in the current backward search. */
  readonly nodeEntry: Int32Array;
  stamp = 0;
  count = 0;
  next = new Int32Array(1024);
  target = new Int32Array(1024);
  dist = new Float64Array(1024);
  /** Arc from the node down towards the destination, or at a seed the search's seedMark. */
  arc = new Int32Array(1024);
  /** Entry of the node below (unused at a seed). */
  parent = new Int32Array(1024);

  constructor(n: number) {
    this.head = new Int32Array(n);
    this.headStamp = new Uint32Array(n);
    this.nodeEntry = new Int32Array(n);
  }

  begin(): void {
    if (this.stamp === 0xffffffff) {
      this.headStamp.fill(0);
      this.stamp = 0;
    }
    this.stamp++;
    this.count = 0;
  }

  add(node: number, target: number, dist: number, arc: number, parent: number): void {
    if (this.count === this.next.length) this.grow();
    const e = this.count++;
    this.next[e] = this.headStamp[node] === this.stamp ? this.head[node]! : -1;
    this.head[node] = e;
    this.headStamp[node] = this.stamp;
    this.target[e] = target;
    this.dist[e] = dist;
    this.arc[e] = arc;
    this.parent[e] = parent;
    this.nodeEntry[node] = e;
  }

  first(node: number): number {
    return this.headStamp[node] === this.stamp ? this.head[node]! : -1;
  }

  private grow(): void {
    const size = this.next.length * 2;
    const more = <T extends Int32Array | Float64Array>(arr: T): T => {
      const next = new (arr.constructor as new (n: number) => T)(size);
      next.set(arr);
      return next;
    };
    this.next = more(this.next);
    this.target = more(this.target);
    this.dist = more(this.dist);
    this.arc = more(this.arc);
    this.parent = more(this.parent);
  }
}

const spaces = new WeakMap<ContractionHierarchy, Buckets>();

function maxOf(values: Float64Array): number {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return max;
}
const stack: number[] = [];

export function chTable(
  ch: ContractionHierarchy, graph: RoadGraph, origins: readonly Endpoint[], destinations: readonly Endpoint[],
): (ChRoute | null)[][] {
  ch.assertFits(graph);
  let buckets = spaces.get(ch);
  if (!buckets) {
    buckets = new Buckets(ch.nodeCount);
    spaces.set(ch, buckets);
  }
  buckets.begin();
  const { fwd, bwd } = searchPairOf(ch, 'query');
  destinations.forEach((destination, j) => {
    seedBackward(ch, graph, bwd, destination);
    while (bwd.heap.size > 0) {
      const x = bwd.step(true);
      if (x < 0 || bwd.settledStalled) continue;
      const arc = bwd.predArc[x]!;
      const parent = arc < 0 ? -1 : buckets.nodeEntry[bwd.predNode[x]!]!;
      buckets.add(x, j, bwd.dist[x]!, arc, parent);
    }
  });

  const D = destinations.length;
  const best = new Float64Array(D);
  const meetNode = new Int32Array(D);
  const meetEntry = new Int32Array(D);
  const directs: ([number, number, number] | null)[] = new Array<[number, number, number] | null>(D);
  return origins.map((origin) => {
    for (let j = 0; j < D; j++) {
      directs[j] = directTrip(ch, origin, destinations[j]!);
      best[j] = directs[j] ? directs[j]![0] : Infinity;
      meetNode[j] = -1;
    }
    let worst = maxOf(best);
    seedForward(ch, graph, fwd, origin);
    // Once the least key left reaches every destination's best, nothing can improve.
    while (fwd.heap.size > 0 && fwd.heap.peekKey() < worst) {
      const x = fwd.step(true);
      if (x < 0 || fwd.settledStalled) continue;
      const dx = fwd.dist[x]!;
      for (let e = buckets.first(x); e >= 0; e = buckets.next[e]!) {
        const j = buckets.target[e]!;
        const c = dx + buckets.dist[e]!;
        if (c < best[j]!) {
          const wasWorst = best[j] === worst;
          best[j] = c;
          meetNode[j] = x;
          meetEntry[j] = e;
          if (wasWorst) worst = maxOf(best);
        }
      }
    }
    return destinations.map((destination, j): ChRoute | null => {
      if (best[j] === Infinity) return null;
      if (meetNode[j]! < 0) {
        const [, i, k] = directs[j]!;
        return directRouteOf(best[j]!, origin, i, destination, k);
      }
      const middle: number[] = [];
      const i = unpackForward(ch, fwd, meetNode[j]!, middle, stack);
      let e = meetEntry[j]!;
      while (buckets.arc[e]! >= 0) {
        unpackArc(ch, buckets.arc[e]!, middle, stack);
        e = buckets.parent[e]!;
      }
      return routeOf(best[j]!, origin, i, middle, destination, seedPosition(buckets.arc[e]!));
    });
  });
}
