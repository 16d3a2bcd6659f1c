/**
 * The collected synthetic segments in the release layout: one directed edge per direction some
 * mode may use, grouped by source node (CSR), the two directions of a segment naming each other
 * in edgeReverse and sharing its shape (the backward one flagged reversed), then the turn rules
 * resolved to (in edge, out edge) pairs sorted without repeats.
 */
import { EDGE_FLAG, NO_EDGE, newEdgeArrays, type EdgeLayout, type GraphArrays } from '../../../engines/routing/graph-format.ts';
import type { GraphBuilder } from './synthetic-builder.ts';
import { AUTO } from './synthetic-profiles.ts';

function layoutEdges(b: GraphBuilder): EdgeLayout {
  const n = b.nodeCount;
  const codes = b.profiles.codes();
  const firstEdge = new Uint32Array(n + 1);
  for (let s = 0; s < b.segmentCount; s++) {
    const p = b.segProfile[s]!;
    if (codes.forward[p]) firstEdge[b.segU[s]! + 1]!++;
    if (codes.backward[p]) firstEdge[b.segV[s]! + 1]!++;
  }
  for (let u = 0; u < n; u++) firstEdge[u + 1]! += firstEdge[u]!;
  const m = firstEdge[n]!;
  // Synthetic graphs are flat: edgeGrade stays 0.
  const a: EdgeLayout = { firstEdge, ...newEdgeArrays(m) };
  const cursor = firstEdge.slice(0, n);
  const put = (s: number, p: number, from: number, to: number, backward: boolean): number => {
    const i = cursor[from]!++;
    a.edgeTarget[i] = to;
    a.edgeLength[i] = b.segLength[s]!;
    a.edgeClass[i] = codes.roadClass[p]!;
    a.edgeFlags[i] = codes.flags[p]! | (backward ? EDGE_FLAG.reversed : 0);
    a.edgeAccess[i] = backward ? codes.backward[p]! : codes.forward[p]!;
    a.edgeSpeedAuto[i] = codes.speedAuto[p]!;
    a.edgeSpeedTruck[i] = codes.speedTruck[p]!;
    a.edgeMaxHeight[i] = codes.maxHeight[p]!;
    a.edgeMaxWeight[i] = codes.maxWeight[p]!;
    a.edgeName[i] = b.segName[s]!;
    a.edgeRef[i] = b.segRef[s]!;
    a.edgeShapeStart[i] = b.segShapeStart[s]!;
    a.edgeShapeCount[i] = b.segShapeCount[s]!;
    if (codes.flags[p]! & EDGE_FLAG.ferry) a.edgeFerrySeconds[i] = b.ferrySeconds.get(s) ?? 0;
    return i;
  };
  for (let s = 0; s < b.segmentCount; s++) {
    const p = b.segProfile[s]!;
    const u = b.segU[s]!;
    const v = b.segV[s]!;
    const forward = codes.forward[p] ? put(s, p, u, v, false) : NO_EDGE;
    const backward = codes.backward[p] ? put(s, p, v, u, true) : NO_EDGE;
    if (forward !== NO_EDGE && backward !== NO_EDGE) {
      a.edgeReverse[forward] = backward;
      a.edgeReverse[backward] = forward;
    }
  }
  return a;
}

const angleGap = (a: number, b: number): number => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));
/** A neighbour counts as lying in a rule's direction within this angle. */
const MAX_GAP = Math.PI / 5;

/** The out edge of `via` whose target lies closest to `angle` (within MAX_GAP) among those `accept` takes, else NO_EDGE. */
function edgeToward(b: GraphBuilder, a: EdgeLayout, via: number, angle: number, accept: (e: number) => boolean): number {
  const cosLat = Math.cos((b.latOf(via) * Math.PI) / 180);
  let best = NO_EDGE;
  let bestGap = MAX_GAP;
  for (let e = a.firstEdge[via]!; e < a.firstEdge[via + 1]!; e++) {
    if (!accept(e)) continue;
    const t = a.edgeTarget[e]!;
    const gap = angleGap(Math.atan2(b.lat[t]! - b.lat[via]!, (b.lng[t]! - b.lng[via]!) * cosLat), angle);
    if (gap < bestGap) {
      bestGap = gap;
      best = e;
    }
  }
  return best;
}

function resolveTurns(b: GraphBuilder, a: EdgeLayout): Pick<GraphArrays, 'turnInEdge' | 'turnOutEdge' | 'turnModes'> {
  const pairs = new Map<number, number>();
  const t = b.turns;
  for (let r = 0; r < t.count; r++) {
    const via = t.via[r]!;
    // The arriving edge is the reverse of the way out toward the neighbour it comes from.
    const back = edgeToward(b, a, via, t.fromAngle[r]!, (e) => a.edgeReverse[e] !== NO_EDGE && (a.edgeAccess[a.edgeReverse[e]!]! & AUTO) !== 0);
    const out = edgeToward(b, a, via, t.toAngle[r]!, (e) => (a.edgeAccess[e]! & AUTO) !== 0);
    if (back === NO_EDGE || out === NO_EDGE || back === out) continue;
    const key = a.edgeReverse[back]! * 2 ** 32 + out;
    pairs.set(key, (pairs.get(key) ?? 0) | t.modes[r]!);
  }
  const keys = Float64Array.from(pairs.keys()).sort();
  const turnInEdge = new Uint32Array(keys.length);
  const turnOutEdge = new Uint32Array(keys.length);
  const turnModes = new Uint8Array(keys.length);
  keys.forEach((key, i) => {
    turnInEdge[i] = Math.floor(key / 2 ** 32);
    turnOutEdge[i] = key % 2 ** 32;
    turnModes[i] = pairs.get(key)!;
  });
  return { turnInEdge, turnOutEdge, turnModes };
}

function stringTable(strings: readonly string[]): { stringBytes: Uint8Array; stringOffsets: Uint32Array } {
  const encoded = strings.map((s) => Buffer.from(s, 'utf8'));
  const stringOffsets = new Uint32Array(encoded.length + 1);
  encoded.forEach((bytes, i) => (stringOffsets[i + 1] = stringOffsets[i]! + bytes.length));
  const stringBytes = new Uint8Array(stringOffsets[encoded.length]!);
  encoded.forEach((bytes, i) => stringBytes.set(bytes, stringOffsets[i]!));
  return { stringBytes, stringOffsets };
}

export function layoutGraph(b: GraphBuilder): GraphArrays {
  const edges = layoutEdges(b);
  return {
    nodeLng: b.lng.slice(0, b.nodeCount),
    nodeLat: b.lat.slice(0, b.nodeCount),
    ...edges,
    shapeCoords: b.shape.slice(0, 2 * b.shapeCount),
    ...stringTable(b.strings),
    ...resolveTurns(b, edges),
  };
}
