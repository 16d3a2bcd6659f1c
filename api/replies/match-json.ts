import { fromMicroDegrees } from '../../engines/routing/graph-format.ts';
import type { TraceMatch } from '../../engines/routing/match/match-trace.ts';

type Line = [number, number][];

function lineOf(micro: Int32Array): Line {
  const out: Line = [];
  for (let i = 0; i < micro.length; i += 2) out.push([fromMicroDegrees(micro[i]!), fromMicroDegrees(micro[i + 1]!)]);
  return out;
}

/** The answer of volume 3's /match contract (MatchResponse), as JSON text. */
export function matchJson(match: TraceMatch): string {
  const lines = match.segments.map((s) => lineOf(s.line));
  const segments = match.segments.map((s, k) => ({
    fromPoint: s.fromPoint, toPoint: s.toPoint, distanceMeters: Math.round(s.metres), durationSeconds: Math.round(s.seconds),
    geometry: { type: 'LineString', coordinates: lines[k]! },
  }));
  const points = match.points.map((p, index) => (p === null
    ? { index, matched: false }
    : { index, matched: true, location: [p.lng, p.lat], edge: { id: String(p.edge) }, distanceMeters: Math.round(p.distance * 10) / 10, segment: p.segment }));
  const unmatched = match.points.filter((p) => p === null).length;
  const warnings = unmatched === 0 ? [] : [{ code: 'POINTS_UNMATCHED', message: `${unmatched} of ${match.points.length} points could not be matched to a road; see points[].matched and breaks` }];
  return JSON.stringify({
    distanceMeters: segments.reduce((sum, s) => sum + s.distanceMeters, 0),
    durationSeconds: segments.reduce((sum, s) => sum + s.durationSeconds, 0),
    geometry: lines.length === 1 ? { type: 'LineString', coordinates: lines[0] } : { type: 'MultiLineString', coordinates: lines },
    segments,
    points,
    breaks: match.breaks,
    ...(warnings.length > 0 ? { warnings } : {}),
  });
}
