/** What a bounded search reaches (reach.ts), and the list it collects it in. */
import type { Endpoint } from './endpoints.ts';
import { NO_EDGE } from './graph-format.ts';
import type { SearchSpace } from './search-space.ts';

export interface Reach {
  /** Every edge entered within the budget (origin edges first). */
  edges: Uint32Array;
  /** The node edges[i] leaves. */
  source: Uint32Array;
  /** Seconds on entering edges[i] (0 for an origin edge, where it is entered at its origin fraction). */
  entry: Float64Array;
  /** Seconds on reaching the end of edges[i]; Infinity when that is beyond the budget (reached part of the way). */
  arrival: Float64Array;
  /** The index in `edges` of edges[i]'s reverse when that was entered too, else -1. */
  reverse: Int32Array;
  /** The origin edges and the fraction they are entered at. */
  origin: Endpoint;
}

/** The entered edges and their sources in order, in typed arrays that double when full. */
export class EnteredList {
  edges = new Uint32Array(1024);
  source = new Uint32Array(1024);
  length = 0;

  /** Appends the edge and returns its index. */
  push(edge: number, source: number): number {
    if (this.length === this.edges.length) {
      const edges = new Uint32Array(2 * this.length);
      edges.set(this.edges);
      const sources = new Uint32Array(2 * this.length);
      sources.set(this.source);
      this.edges = edges;
      this.source = sources;
    }
    this.edges[this.length] = edge;
    this.source[this.length] = source;
    return this.length++;
  }

  /**
   * The reach of these edges, from the search's labels: `seconds` on reaching each edge's end,
   * the space's `metres` as entry seconds and `pred` as each edge's index in this list.
   */
  answer(space: SearchSpace, stamp: number, seconds: Float64Array, maxSeconds: number, origin: Endpoint, edgeReverse: Uint32Array): Reach {
    const { seen, pred, metres: entry } = space;
    const edges = this.edges.slice(0, this.length);
    const arrival = new Float64Array(edges.length);
    const entered = new Float64Array(edges.length);
    const reverse = new Int32Array(edges.length);
    for (let i = 0; i < edges.length; i++) {
      const e = edges[i]!;
      const s = seconds[e]!;
      arrival[i] = s <= maxSeconds ? s : Infinity;
      entered[i] = entry[e]!;
      const r = edgeReverse[e]!;
      reverse[i] = r !== NO_EDGE && seen[r] === stamp ? pred[r]! : -1;
    }
    return { edges, source: this.source.slice(0, this.length), entry: entered, arrival, reverse, origin };
  }
}
