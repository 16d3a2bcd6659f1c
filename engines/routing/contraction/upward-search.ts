/**
 * One direction of a CH search, in labels reused from query to query (a stamp says which entries
 * belong to the current search). The forward side runs over the up arcs and stalls over the down
 * arcs; the backward side the other way round. Stall-on-demand: a node whose label is beaten by a
 * label of a higher neighbour plus the arc from it is not expanded (no shortest path climbs
 * through it with that label).
 */
import { MinHeap } from '../heap.ts';
import type { ContractionHierarchy } from './hierarchy.ts';

/** predArc of a seed: −1 − the index of its seeding position. */
export const seedMark = (position: number): number => -1 - position;
export const seedPosition = (predArc: number): number => -1 - predArc;

export class UpwardSearch {
  readonly dist: Float64Array;
  readonly seen: Uint32Array;
  /** Arc id that reached the node, or seedMark(position) for a seed. */
  readonly predArc: Int32Array;
  /** The node predArc came from (its lower end, where its CSR slot is); unset at a seed. */
  readonly predNode: Uint32Array;
  readonly heap = new MinHeap(1024);
  stamp = 0;
  /** Whether the node the last step settled was stalled (its label then serves no meeting or bucket). */
  settledStalled = false;
  private readonly first: Uint32Array;
  private readonly head: Uint32Array;
  private readonly weight: Float64Array;
  private readonly stallFirst: Uint32Array;
  private readonly stallHead: Uint32Array;
  private readonly stallWeight: Float64Array;
  /** Added to a CSR index to give the arc id (0 for up arcs, upArcs for down arcs). */
  private readonly arcBase: number;

  constructor(ch: ContractionHierarchy, readonly forward: boolean) {
    const a = ch.arrays;
    const n = ch.nodeCount;
    this.dist = new Float64Array(n);
    this.seen = new Uint32Array(n);
    this.predArc = new Int32Array(n);
    this.predNode = new Uint32Array(n);
    this.first = forward ? a.upFirst : a.downFirst;
    this.head = forward ? a.upHead : a.downHead;
    this.weight = forward ? a.upWeight : a.downWeight;
    this.stallFirst = forward ? a.downFirst : a.upFirst;
    this.stallHead = forward ? a.downHead : a.upHead;
    this.stallWeight = forward ? a.downWeight : a.upWeight;
    this.arcBase = forward ? 0 : ch.upArcs;
  }

  begin(): void {
    if (this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 0;
    }
    this.stamp++;
    this.heap.clear();
  }

  /** Seeds `node` at distance d from position `position` (kept when better than its label). */
  seed(node: number, d: number, position: number): void {
    if (this.seen[node] !== this.stamp || d < this.dist[node]!) {
      this.seen[node] = this.stamp;
      this.dist[node] = d;
      this.predArc[node] = seedMark(position);
      this.heap.push(d, node);
    }
  }

  has(node: number): boolean {
    return this.seen[node] === this.stamp;
  }

  /** Distance of the label at node, Infinity when none. */
  at(node: number): number {
    return this.seen[node] === this.stamp ? this.dist[node]! : Infinity;
  }

  /** Least key left (Infinity when the heap is empty). */
  topKey(): number {
    return this.heap.size > 0 ? this.heap.peekKey() : Infinity;
  }

  /** Pops the next node and expands it unless stalled; returns it, or -1 when the pop was stale. */
  step(stall: boolean): number {
    const heap = this.heap;
    const key = heap.peekKey();
    const v = heap.pop();
    const dist = this.dist;
    if (key > dist[v]!) return -1;
    const seen = this.seen;
    const stamp = this.stamp;
    this.settledStalled = false;
    if (stall) {
      const sHead = this.stallHead;
      const sWeight = this.stallWeight;
      for (let i = this.stallFirst[v]!, end = this.stallFirst[v + 1]!; i < end; i++) {
        const x = sHead[i]!;
        if (seen[x] === stamp && dist[x]! + sWeight[i]! < key) {
          this.settledStalled = true;
          return v;
        }
      }
    }
    const head = this.head;
    const weight = this.weight;
    const base = this.arcBase;
    for (let i = this.first[v]!, end = this.first[v + 1]!; i < end; i++) {
      const x = head[i]!;
      const d = key + weight[i]!;
      if (seen[x] !== stamp || d < dist[x]!) {
        seen[x] = stamp;
        dist[x] = d;
        this.predArc[x] = base + i;
        this.predNode[x] = v;
        heap.push(d, x);
      }
    }
    return v;
  }
}

export interface SearchPair {
  fwd: UpwardSearch;
  bwd: UpwardSearch;
}

const spaces = new WeakMap<ContractionHierarchy, Map<string, SearchPair>>();

/** The hierarchy's forward and backward searches for one purpose (searches are synchronous, so sharing is safe). */
export function searchPairOf(ch: ContractionHierarchy, purpose: string): SearchPair {
  let byPurpose = spaces.get(ch);
  if (!byPurpose) {
    byPurpose = new Map();
    spaces.set(ch, byPurpose);
  }
  let pair = byPurpose.get(purpose);
  if (!pair) {
    pair = { fwd: new UpwardSearch(ch, true), bwd: new UpwardSearch(ch, false) };
    byPurpose.set(purpose, pair);
  }
  return pair;
}
