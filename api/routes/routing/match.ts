import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fromMicroDegrees } from '../../../engines/routing/graph-format.ts';
import { traceMetres, type TraceMatch } from '../../../engines/routing/match/match-trace.ts';
import type { Mode } from '../../../engines/routing/modes.ts';
import type { RoadNetwork } from '../../../engines/routing/release.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { ROADS_KIND } from '../../../schemas/roads-release.ts';
import {
  MATCH_BODY_LIMIT_BYTES, MATCH_BREAKAGE_DEFAULT, MATCH_ERRORS, MATCH_GPS_ACCURACY_DEFAULT, MATCH_MODES, MATCH_SEARCH_RADIUS,
  MAX_MATCH_POINTS, MAX_MATCH_TRACE_METRES, MatchBody, MatchResponse,
} from '../../../schemas/routing-match-api.ts';
import { errors } from '../../../lib/errors.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { checkMatchPoints } from '../../params/routing/match.ts';
import { checkMode } from '../../params/routing/options.ts';
import { guardEngine } from '../../replies/routing.ts';
import { routingBackend, throughValhalla } from '../../routing/backend.ts';
import { onRoutingWorker } from '../../routing/worker-pool.ts';
import { valhallaMatch } from '../../../engines/valhalla/match.ts';

type Line = [number, number][];

function lineOf(micro: Int32Array): Line {
  const out: Line = [];
  for (let i = 0; i < micro.length; i += 2) out.push([fromMicroDegrees(micro[i]!), fromMicroDegrees(micro[i + 1]!)]);
  return out;
}

/** The answer of volume 3's /match contract (MatchResponse), as JSON text. */
function matchJson(match: TraceMatch): string {
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

/** POST /match: a GPS trace matched to the enabled road graph (hidden Markov model, engines/routing/match/). */
export const matchRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/match', {
    bodyLimit: MATCH_BODY_LIMIT_BYTES,
    schema: {
      tags: ['routing'],
      summary: 'Match a GPS trace to roads',
      description: `JSON body: points (2 to ${MAX_MATCH_POINTS}, each [lng, lat] or {lng, lat, time?, accuracy?}; time in unix seconds or ISO 8601, `
        + `non-decreasing), mode (${MATCH_MODES.join(', ')}), search_radius (metres, default ${MATCH_SEARCH_RADIUS.default}, `
        + `${MATCH_SEARCH_RADIUS.min} to ${MATCH_SEARCH_RADIUS.max}), gps_accuracy (metres, default ${MATCH_GPS_ACCURACY_DEFAULT}; a point's accuracy `
        + `overrides it), breakage_distance (metres, default ${MATCH_BREAKAGE_DEFAULT}). Newson & Krumm's hidden Markov model decoded with Viterbi: `
        + 'one matched line per segment (a MultiLineString when the match breaks: a gap longer than breakage_distance, no route within it, or '
        + 'points without a road within search_radius), every point\'s matched location and edge, distance and duration from the mode\'s '
        + `cost model. At most ${MAX_MATCH_TRACE_METRES / 1000} km of trace; body at most 1 MiB.`,
      body: MatchBody,
      response: { 200: MatchResponse, ...errorResponses(MATCH_ERRORS, 400, 422, 502, 503) },
    },
  }, async (request, reply) => {
    const body = request.body;
    if (body.points.length > MAX_MATCH_POINTS) throw errors.badRequest(`at most ${MAX_MATCH_POINTS} points`, 'too_many_locations');
    const mode = valueOrThrow(checkMode(body.mode, MATCH_MODES));
    const fixes = valueOrThrow(checkMatchPoints(body.points));
    if (traceMetres(fixes) > MAX_MATCH_TRACE_METRES) {
      throw errors.badRequest(`the trace must be at most ${MAX_MATCH_TRACE_METRES / 1000} km long (sum of the straight hops between points)`, 'too_many_locations');
    }
    const options = {
      searchRadius: body.search_radius ?? MATCH_SEARCH_RADIUS.default,
      gpsAccuracy: body.gps_accuracy ?? MATCH_GPS_ACCURACY_DEFAULT,
      breakageDistance: body.breakage_distance ?? MATCH_BREAKAGE_DEFAULT,
    };
    const routingMode = (mode === 'car' ? 'auto' : mode) as Mode;
    const valhalla = routingBackend(app);
    if (valhalla) {
      return throughValhalla(request, () => errors.routingFailed('map matching failed'), () => valhallaMatch(valhalla, {
        points: fixes.map(({ lng, lat, time, accuracy }) => ({ lng, lat, ...(time === null ? {} : { time }), ...(accuracy === null ? {} : { accuracy }) })),
        mode: routingMode, ...options, options: { mode: routingMode, costs: {} },
      }));
    }
    const json = await app.releases.use(ROADS_KIND, (network: RoadNetwork) => guardEngine(request, () => errors.routingFailed('map matching failed'), async () => {
      const match = await onRoutingWorker(app, request, reply, network, 'match', { mode: routingMode, fixes, options });
      if (match.segments.length === 0) throw errors.noRoute();
      return matchJson(match);
    }));
    // Text skips the response serializer; MatchResponse documents it.
    return reply.type('application/json; charset=utf-8').send(json as never);
  });
};
