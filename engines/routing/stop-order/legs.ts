/**
 * The legs of an ordered route: each consecutive pair's path from the travel table (the engine's
 * exact path for the mode, as /route finds it), its line, and the whole route's line with the legs
 * joined end to start.
 */
import type { RoadGraph } from '../road-graph.ts';
import { routeLineMicro } from '../route-geometry.ts';
import type { RouteResult } from '../search.ts';

export interface RouteLeg {
  /** Stop indices. */
  from: number;
  to: number;
  metres: number;
  seconds: number;
  /** Micro-degrees, lng,lat interleaved; at least two positions. */
  line: Int32Array;
}

/** The stops' visits as pairs: consecutive stops of `order`, and back to the first on a round trip. */
export function legPairs(order: readonly number[], roundTrip: boolean): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < order.length; i++) pairs.push([order[i]!, order[i + 1]!]);
  if (roundTrip && order.length > 1) pairs.push([order[order.length - 1]!, order[0]!]);
  return pairs;
}

/** Each pair's leg from its path (every pair must have one). */
export function routeLegs(graph: RoadGraph, paths: readonly (readonly (RouteResult | null)[])[], pairs: readonly [number, number][]): RouteLeg[] {
  return pairs.map(([from, to]) => {
    const path = paths[from]![to];
    if (!path) throw new Error(`stop order: no path from stop ${from} to stop ${to}`);
    return { from, to, metres: path.metres, seconds: path.seconds, line: routeLineMicro(graph, path) };
  });
}

/** The legs' lines end to start, a position shared by a leg's end and the next leg's start kept once. */
export function joinLines(lines: readonly Int32Array[]): Int32Array {
  let size = 0;
  for (const line of lines) size += line.length;
  const out = new Int32Array(size);
  let n = 0;
  for (const line of lines) {
    const repeats = n >= 2 && out[n - 2] === line[0] && out[n - 1] === line[1];
    const from = repeats ? 2 : 0;
    out.set(line.subarray(from), n);
    n += line.length - from;
  }
  return out.subarray(0, n);
}
