/**
 * The per-edge label arrays a search works in, reused from query to query: a generation stamp
 * says which entries belong to the current search, so nothing is cleared or allocated per query.
 * Searches are synchronous, so one space per graph is shared safely within a process.
 */
import { MinHeap } from './heap.ts';
import type { RoadGraph } from './road-graph.ts';

export class SearchSpace {
  /** Cost, seconds and metres on arriving at the edge's end. */
  readonly cost: Float64Array;
  readonly seconds: Float64Array;
  readonly metres: Float64Array;
  /** The edge before, or -1 for an origin edge. */
  readonly pred: Int32Array;
  /** stamp when the edge has a label in this search. */
  readonly seen: Uint32Array;
  /** stamp when the edge's label is final. */
  readonly done: Uint32Array;
  /** stamp when a destination lies on the edge. */
  readonly targetMark: Uint32Array;
  readonly heap = new MinHeap(4096);
  stamp = 0;

  constructor(readonly edgeCount: number) {
    this.cost = new Float64Array(edgeCount);
    this.seconds = new Float64Array(edgeCount);
    this.metres = new Float64Array(edgeCount);
    this.pred = new Int32Array(edgeCount);
    this.seen = new Uint32Array(edgeCount);
    this.done = new Uint32Array(edgeCount);
    this.targetMark = new Uint32Array(edgeCount);
  }

  /** Starts a new search: a fresh stamp and an empty heap. */
  begin(): number {
    if (this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.done.fill(0);
      this.targetMark.fill(0);
      this.stamp = 0;
    }
    this.heap.clear();
    return ++this.stamp;
  }
}

/** 'main' for every search; 'behind' for map matching's backward search, which runs while a 'main' one holds its labels. */
export type SearchSpaceSlot = 'main' | 'behind';

const spaces: Record<SearchSpaceSlot, WeakMap<RoadGraph, SearchSpace>> = { main: new WeakMap(), behind: new WeakMap() };

export function searchSpaceOf(graph: RoadGraph, slot: SearchSpaceSlot = 'main'): SearchSpace {
  let space = spaces[slot].get(graph);
  if (!space) {
    space = new SearchSpace(graph.edgeCount);
    spaces[slot].set(graph, space);
  }
  return space;
}
