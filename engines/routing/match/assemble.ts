/**
 * From decoded runs to the match: segments (a run of at least two fixes), their lines (the chosen
 * paths end to end, stored coordinates at six decimals), distance and time from the cost model,
 * each fix's matched position, and the breaks between segments. A run of a single fix connects
 * to nothing: its fix is reported unmatched.
 */
import { haversineMetres } from '../../../lib/geo/haversine.ts';
import { nearestFractionToOrigin } from '../../../lib/geo/planar.ts';
import type { CostModel } from '../cost-model.ts';
import { fromMicroDegrees, toMicroDegrees } from '../graph-format.ts';
import { routeLineMicro } from '../route-geometry.ts';
import type { MatchState } from './candidates.ts';
import type { TraceFix } from './trace.ts';
import type { MatchPath } from './transition-search.ts';
import type { BreakReason, MatchRun } from './viterbi.ts';

export interface MatchedFix {
  index: number;
  lng: number;
  lat: number;
  edge: number;
  /** Fix to matched position, metres. */
  distance: number;
  segment: number;
}

export interface MatchSegment {
  fromPoint: number;
  toPoint: number;
  metres: number;
  seconds: number;
  /** Micro-degrees, lng,lat interleaved, at least two positions. */
  line: Int32Array;
}

export interface MatchBreak {
  afterPoint: number;
  beforePoint: number;
  reason: BreakReason;
}

export interface TraceMatch {
  segments: MatchSegment[];
  /** By fix index; null where the fix is unmatched. */
  points: (MatchedFix | null)[];
  breaks: MatchBreak[];
}

/** One edge's stretch of a path, as drawn. */
interface Piece {
  edge: number;
  line: Int32Array;
}

function pathPieces(model: CostModel, path: MatchPath): Piece[] {
  const last = path.edges.length - 1;
  return path.edges.map((edge, k) => {
    const route = { edges: Uint32Array.of(edge), startFraction: k === 0 ? path.startFraction : 0, endFraction: k === last ? path.endFraction : 1, cost: 0, seconds: 0, metres: 0 };
    return { edge, line: routeLineMicro(model.graph, route) };
  });
}

/** The nearest point of the pieces to a fix (local plane), with its edge. */
function projectOnPieces(pieces: readonly Piece[], fix: TraceFix): { lng: number; lat: number; edge: number } | null {
  const cos = Math.cos((fix.lat * Math.PI) / 180);
  let best: { lng: number; lat: number; edge: number } | null = null;
  let bestD2 = Infinity;
  for (const { edge, line } of pieces) {
    for (let p = 0; p + 3 < line.length; p += 2) {
      const x0 = (fromMicroDegrees(line[p]!) - fix.lng) * cos;
      const y0 = fromMicroDegrees(line[p + 1]!) - fix.lat;
      const x1 = (fromMicroDegrees(line[p + 2]!) - fix.lng) * cos;
      const y1 = fromMicroDegrees(line[p + 3]!) - fix.lat;
      const t = nearestFractionToOrigin(x0, y0, x1, y1);
      const px = x0 + t * (x1 - x0);
      const py = y0 + t * (y1 - y0);
      const d2 = px * px + py * py;
      if (d2 < bestD2) {
        bestD2 = d2;
        best = { lng: fix.lng + px / cos, lat: fix.lat + py, edge };
      }
    }
  }
  return best;
}

/** Appends a micro-degree line to another, without repeating the joint. */
function appendLine(out: number[], line: Int32Array): void {
  for (let p = 0; p < line.length; p += 2) {
    const n = out.length;
    if (n >= 2 && out[n - 2] === line[p] && out[n - 1] === line[p + 1]) continue;
    out.push(line[p]!, line[p + 1]!);
  }
}

const atSixDecimals = (deg: number) => fromMicroDegrees(toMicroDegrees(deg));

function matchedAt(fix: TraceFix, index: number, segment: number, lng: number, lat: number, edge: number): MatchedFix {
  const x = atSixDecimals(lng);
  const y = atSixDecimals(lat);
  return { index, lng: x, lat: y, edge, distance: haversineMetres(fix.lng, fix.lat, x, y), segment };
}

/** A path over `edges` from `startFraction` of the first to `endFraction` of the last, measured by the cost model. */
function measured(model: CostModel, edges: number[], startFraction: number, endFraction: number): MatchPath {
  const length = model.graph.arrays.edgeLength;
  const last = edges.length - 1;
  let metres = 0;
  let seconds = 0;
  edges.forEach((edge, k) => {
    const share = (k === last ? endFraction : 1) - (k === 0 ? startFraction : 0);
    metres += share * length[edge]!;
    seconds += share * model.seconds(edge);
  });
  return { edges, startFraction, endFraction, metres, seconds, jitter: false };
}

/**
 * A path from where the match already is, when a backward jitter left it ahead of the path's
 * start (on the path's way): the stretch behind is not drawn or counted twice. Null when the
 * path does not move past that position at all.
 */
function fromPosition(model: CostModel, path: MatchPath, at: { edge: number; fraction: number } | null): MatchPath | null {
  if (path.jitter) return null;
  if (!at) return path;
  const k = path.edges.indexOf(at.edge);
  if (k < 0) return path;
  const last = path.edges.length - 1;
  const startOnEdge = k === 0 ? path.startFraction : 0;
  const endOnEdge = k === last ? path.endFraction : 1;
  if (at.fraction <= startOnEdge) return path;
  if (at.fraction >= endOnEdge) return k === last ? null : path;
  return measured(model, path.edges.slice(k), at.fraction, path.endFraction);
}

function assembleRun(model: CostModel, run: MatchRun, fixes: readonly TraceFix[], segment: number, points: (MatchedFix | null)[]): MatchSegment {
  const line: number[] = [];
  let metres = 0;
  let seconds = 0;
  let at: { edge: number; fraction: number } | null = null;
  const piecesAfter: Piece[][] = [];
  run.fixes.forEach((fixIndex, k) => {
    const s: MatchState = run.states[k]!;
    points[fixIndex] = matchedAt(fixes[fixIndex]!, fixIndex, segment, s.lng, s.lat, s.edge);
    if (k === 0) {
      appendLine(line, Int32Array.of(toMicroDegrees(s.lng), toMicroDegrees(s.lat)));
      at = { edge: s.edge, fraction: s.fraction };
    }
    const path = k < run.paths.length ? fromPosition(model, run.paths[k]!, at) : null;
    const pieces = path ? pathPieces(model, path) : [];
    piecesAfter.push(pieces);
    if (path) {
      for (const piece of pieces) appendLine(line, piece.line);
      metres += path.metres;
      seconds += path.seconds;
      at = { edge: path.edges[path.edges.length - 1]!, fraction: path.endFraction };
    }
  });
  for (const { fix, after } of run.interpolated) {
    const pieces = piecesAfter[after]!;
    const s = run.states[after]!;
    const hit = projectOnPieces(pieces.length > 0 ? pieces : pathPieces(model, { edges: [s.edge], startFraction: 0, endFraction: 1, metres: 0, seconds: 0, jitter: false }), fixes[fix]!);
    points[fix] = hit ? matchedAt(fixes[fix]!, fix, segment, hit.lng, hit.lat, hit.edge) : matchedAt(fixes[fix]!, fix, segment, s.lng, s.lat, s.edge);
  }
  if (line.length === 2) line.push(line[0]!, line[1]!);
  const last = Math.max(run.fixes[run.fixes.length - 1]!, ...run.interpolated.map((p) => p.fix));
  return { fromPoint: run.fixes[0]!, toPoint: last, metres, seconds, line: Int32Array.from(line) };
}

export function assembleMatch(model: CostModel, runs: readonly MatchRun[], fixes: readonly TraceFix[]): TraceMatch {
  const points: (MatchedFix | null)[] = new Array(fixes.length).fill(null);
  const segments: MatchSegment[] = [];
  const breaks: MatchBreak[] = [];
  let pending: BreakReason | null = null;
  for (const run of runs) {
    if (run.fixes.length + run.interpolated.length >= 2) {
      const previous = segments[segments.length - 1];
      const segment = assembleRun(model, run, fixes, segments.length, points);
      if (previous) breaks.push({ afterPoint: previous.toPoint, beforePoint: segment.fromPoint, reason: pending ?? 'unroutable' });
      segments.push(segment);
      pending = null;
    }
    pending ??= run.endedBy;
  }
  return { segments, points, breaks };
}
