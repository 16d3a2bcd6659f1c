/**
 * Sampling the reached roads into the time grid. Each road segment is walked once, whichever of
 * its directions were entered: a point at fraction f of edge c is reached at the sooner of "via c
 * at f" and "via c's reverse at 1 − f", which is what the grid would keep of two stamps anyway, so
 * the two directions share the haversines and the stamps. A segment's end nodes are stamped
 * only with the arrival of each edge ending there: the start of an entered edge is the end of the
 * edge it was entered from, at the same time, so stamping it again would change nothing.
 */
import { haversineMetres, METRES_PER_DEGREE } from '../../lib/geo/haversine.ts';
import type { CostModel } from './cost-model.ts';
import { EDGE_FLAG, fromMicroDegrees, type GraphArrays } from './graph-format.ts';
import { stampTime, type TimeGrid } from './isochrone-grid.ts';
import type { Reach } from './reach.ts';

/** One direction of a segment as entered: seconds on entering, its origin fraction (0 unless an origin edge), its seconds end to end. */
interface Direction {
  entry: number;
  from: number;
  seconds: number;
}

const NOT_ENTERED: Direction = { entry: Infinity, from: 0, seconds: 0 };

/** Points along every reached segment, at most 0.7 of a grid cell apart (so every cell a road crosses gets one), stamped with their arrival times. */
export function stampReached(grid: TimeGrid, model: CostModel, reach: Reach, budget: number): void {
  const a = model.graph.arrays;
  const { edges, entry, arrival, reverse } = reach;
  const startFraction = new Map(reach.origin.map((p) => [p.edge, p.fraction]));
  const direction = (i: number): Direction => {
    const e = edges[i]!;
    // Origin edges are entered at 0 s (and only few others are).
    return { entry: entry[i]!, from: entry[i] === 0 ? startFraction.get(e) ?? 0 : 0, seconds: model.seconds(e) };
  };
  // An origin at a node is entered from nothing: its start gets its own stamp.
  for (const [edge, fraction] of startFraction) {
    if (fraction !== 0) continue;
    const source = model.graph.edgeSource(edge);
    stampTime(grid, fromMicroDegrees(a.nodeLng[source]!), fromMicroDegrees(a.nodeLat[source]!), 0);
  }
  const spacing = 0.7 * grid.cellMetres;
  for (let i = 0; i < edges.length; i++) {
    const j = reverse[i]!;
    const e = edges[i]!;
    if (j >= 0 && edges[j]! < e) continue; // walked from its reverse
    const source = reach.source[i]!;
    const target = a.edgeTarget[e]!;
    const x0 = fromMicroDegrees(a.nodeLng[source]!);
    const y0 = fromMicroDegrees(a.nodeLat[source]!);
    const x1 = fromMicroDegrees(a.nodeLng[target]!);
    const y1 = fromMicroDegrees(a.nodeLat[target]!);
    if (arrival[i]! <= budget) stampTime(grid, x1, y1, arrival[i]!);
    if (j >= 0 && arrival[j]! <= budget) stampTime(grid, x0, y0, arrival[j]!);
    // Most segments are one piece shorter than the spacing: no point between the ends.
    if (a.edgeShapeCount[e] === 0 && boundMetres(x0, y0, x1, y1) <= spacing) continue;
    stampInterior(grid, a, e, source, direction(i), j >= 0 ? direction(j) : NOT_ENTERED, spacing, budget);
  }
}

/** At least the haversine distance (metres along a meridian and a parallel, with slack for rounding), without trigonometry. */
function boundMetres(lng0: number, lat0: number, lng1: number, lat1: number): number {
  return (Math.abs(lng1 - lng0) + Math.abs(lat1 - lat0)) * METRES_PER_DEGREE * (1 + 1e-6);
}

/**
 * The points of edge e strictly between its end nodes, in e's direction: at fraction f, the
 * sooner of `forward` at f and `back` (e's reverse) at 1 − f. Stops at the first point beyond the
 * budget when only e was entered (times then only grow along it).
 */
function stampInterior(grid: TimeGrid, a: GraphArrays, e: number, source: number, forward: Direction, back: Direction, spacing: number, budget: number): void {
  const total = a.edgeLength[e]!;
  const target = a.edgeTarget[e]!;
  const start = a.edgeShapeStart[e]!;
  const count = a.edgeShapeCount[e]!;
  const reversed = (a.edgeFlags[e]! & EDGE_FLAG.reversed) !== 0;
  const alone = back.entry === Infinity;
  let x0 = fromMicroDegrees(a.nodeLng[source]!);
  let y0 = fromMicroDegrees(a.nodeLat[source]!);
  let along = 0;
  // The edge's straight pieces in travel order; a piece's first point is the previous one's last.
  for (let piece = 0; piece <= count; piece++) {
    let x1: number;
    let y1: number;
    if (piece === count) {
      x1 = fromMicroDegrees(a.nodeLng[target]!);
      y1 = fromMicroDegrees(a.nodeLat[target]!);
    } else {
      const p = 2 * (start + (reversed ? count - 1 - piece : piece));
      x1 = fromMicroDegrees(a.shapeCoords[p]!);
      y1 = fromMicroDegrees(a.shapeCoords[p + 1]!);
    }
    const length = haversineMetres(x0, y0, x1, y1);
    const steps = Math.max(1, Math.ceil(length / spacing));
    const last = piece === count ? steps - 1 : steps;
    for (let k = 1; k <= last; k++) {
      const fraction = total > 0 ? Math.min(1, (along + (length * k) / steps) / total) : 0;
      let seconds = fraction >= forward.from ? forward.entry + (fraction - forward.from) * forward.seconds : Infinity;
      const rest = 1 - fraction;
      if (!alone && rest >= back.from) seconds = Math.min(seconds, back.entry + (rest - back.from) * back.seconds);
      if (seconds > budget) {
        if (alone && fraction >= forward.from) return;
        continue;
      }
      const t = k / steps;
      stampTime(grid, x0 + t * (x1 - x0), y0 + t * (y1 - y0), seconds);
    }
    along += length;
    x0 = x1;
    y0 = y1;
  }
}
