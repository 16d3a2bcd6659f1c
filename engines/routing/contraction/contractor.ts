/**
 * One contraction step of the build: which shortcuts removing a node needs (simulated, for its
 * priority, or applied), and the removal itself. Shortcut u→w via v is needed when the witness
 * search from u, avoiding v, finds nothing at most w(u,v) + w(v,w) long. An existing arc u→w that
 * is longer than the shortcut is overwritten in place: no shortcut refers to it yet, since arcs
 * are only referred to once one of their ends is contracted.
 */
import { ArcLists, ArcStore } from './build-graph.ts';
import { NO_ARC } from './format.ts';
import { WitnessSearch } from './witness.ts';

export interface WitnessLimits {
  /** Settled nodes per witness search when estimating a priority. */
  simulate: number;
  /** Settled nodes per witness search when contracting. */
  contract: number;
}

/** Arcs reserved per original arc (originals plus shortcuts). */
const ARC_ROOM = 3;

export class Contractor {
  readonly arcs: ArcStore;
  readonly out: ArcLists;
  readonly in: ArcLists;
  private readonly witness: WitnessSearch;
  /** Results of the last shortcutsOf. */
  added = 0;
  addedHops = 0;

  /**
   * The graph of hierarchyInput: CSR `first`/`head` by hierarchy node, each arc travelling road
   * edge `edge[i]` and weighing `edgeWeight` of it. Parallel arcs are merged (the lightest kept).
   */
  constructor(nodes: number, first: Uint32Array, head: Uint32Array, edge: Uint32Array, edgeWeight: Float64Array, private readonly limits: WitnessLimits) {
    const outDegree = new Uint32Array(nodes);
    const inDegree = new Uint32Array(nodes);
    let edges = 0;
    for (let u = 0; u < nodes; u++) {
      for (let i = first[u]!; i < first[u + 1]!; i++) {
        const v = head[i]!;
        if (v === u || edgeWeight[edge[i]!] === Infinity) continue;
        outDegree[u] = outDegree[u]! + 1;
        inDegree[v] = inDegree[v]! + 1;
        edges++;
      }
    }
    // Room for every shortcut road graphs get (about one per edge) without growing: the arrays
    // are only address space until written, and growing would copy them all.
    this.arcs = new ArcStore(ARC_ROOM * edges + 16);
    this.out = new ArcLists(nodes, outDegree);
    this.in = new ArcLists(nodes, inDegree);
    this.witness = new WitnessSearch(nodes, this.arcs, this.out);
    for (let u = 0; u < nodes; u++) {
      for (let i = first[u]!; i < first[u + 1]!; i++) {
        const v = head[i]!;
        const e = edge[i]!;
        const w = edgeWeight[e]!;
        if (v === u || w === Infinity) continue;
        const parallel = this.arcTo(u, v);
        if (parallel === NO_ARC) {
          const id = this.arcs.add(u, v, w, e, NO_ARC, 1);
          this.out.add(u, id);
          this.in.add(v, id);
        } else if (w < this.arcs.weight[parallel]!) {
          this.arcs.set(parallel, w, e, NO_ARC, 1);
        }
      }
    }
  }

  /** The arc u→w among u's current arcs, or NO_ARC. */
  private arcTo(u: number, w: number): number {
    const { out, arcs } = this;
    const start = out.start[u]!;
    const end = start + out.size[u]!;
    for (let i = start; i < end; i++) if (arcs.head[out.pool[i]!] === w) return out.pool[i]!;
    return NO_ARC;
  }

  /** Counts (and with `apply`, adds) the shortcuts contracting v needs: `added`, `addedHops`. */
  shortcutsOf(v: number, apply: boolean): void {
    const { arcs, witness } = this;
    const limit = apply ? this.limits.contract : this.limits.simulate;
    this.added = 0;
    this.addedHops = 0;
    const inCount = this.in.size[v]!;
    const outCount = this.out.size[v]!;
    for (let i = 0; i < inCount; i++) {
      // Pools may be reallocated by adds: index them afresh each time.
      const ia = this.in.pool[this.in.start[v]! + i]!;
      const u = arcs.tail[ia]!;
      const wu = arcs.weight[ia]!;
      let maxOut = -1;
      witness.begin();
      for (let j = 0; j < outCount; j++) {
        const oa = this.out.pool[this.out.start[v]! + j]!;
        const w = arcs.head[oa]!;
        if (w === u) continue;
        witness.markTarget(w);
        if (arcs.weight[oa]! > maxOut) maxOut = arcs.weight[oa]!;
      }
      if (maxOut < 0) continue;
      witness.run(u, v, wu + maxOut, limit);
      for (let j = 0; j < outCount; j++) {
        const oa = this.out.pool[this.out.start[v]! + j]!;
        const w = arcs.head[oa]!;
        if (w === u) continue;
        const via = wu + arcs.weight[oa]!;
        if (witness.distance(w) <= via) continue;
        this.added++;
        this.addedHops += arcs.hops[ia]! + arcs.hops[oa]!;
        if (apply) this.addShortcut(u, w, via, ia, oa);
      }
    }
  }

  private addShortcut(u: number, w: number, weight: number, ia: number, oa: number): void {
    const { arcs } = this;
    const hops = arcs.hops[ia]! + arcs.hops[oa]!;
    const existing = this.arcTo(u, w);
    if (existing === NO_ARC) {
      const id = arcs.add(u, w, weight, ia, oa, hops);
      this.out.add(u, id);
      this.in.add(w, id);
    } else if (weight < arcs.weight[existing]!) {
      arcs.set(existing, weight, ia, oa, hops);
    }
  }

  /** Original edges of v's current arcs. */
  hopsAt(v: number): number {
    let hops = 0;
    const { arcs } = this;
    for (let i = this.in.start[v]!, end = i + this.in.size[v]!; i < end; i++) hops += arcs.hops[this.in.pool[i]!]!;
    for (let i = this.out.start[v]!, end = i + this.out.size[v]!; i < end; i++) hops += arcs.hops[this.out.pool[i]!]!;
    return hops;
  }

  /** Takes v out of the remaining graph (after its shortcuts are added); its arcs stay in the store. */
  remove(v: number): void {
    const { arcs } = this;
    for (let i = this.in.start[v]!, end = i + this.in.size[v]!; i < end; i++) {
      const ia = this.in.pool[i]!;
      this.out.remove(arcs.tail[ia]!, ia);
    }
    for (let i = this.out.start[v]!, end = i + this.out.size[v]!; i < end; i++) {
      const oa = this.out.pool[i]!;
      this.in.remove(arcs.head[oa]!, oa);
    }
    this.in.clear(v);
    this.out.clear(v);
  }
}
