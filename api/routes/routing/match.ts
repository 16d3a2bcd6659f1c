import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RoutingCall } from '../../../services/routing/index.ts';
import type { Services } from '../../../services/index.ts';
import { traceMetres } from '../../../engines/routing/match/match-trace.ts';
import type { Mode } from '../../../engines/routing/modes.ts';
import { errorResponses } from '../../../schemas/common.ts';
import {
  MATCH_BODY_LIMIT_BYTES, MATCH_BREAKAGE_DEFAULT, MATCH_ERRORS, MATCH_GPS_ACCURACY_DEFAULT, MATCH_MODES, MATCH_SEARCH_RADIUS,
  MAX_MATCH_POINTS, MAX_MATCH_TRACE_METRES, MatchBody, MatchResponse,
} from '../../../schemas/routing-match-api.ts';
import { errors } from '../../../lib/errors.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { checkMatchPoints } from '../../params/routing/match.ts';
import { checkMode } from '../../params/routing/options.ts';
import { matchJson } from '../../replies/match-json.ts';
import { withRoutingCall } from '../../replies/routing-call.ts';

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
    const answer = await withRoutingCall(request, reply, (call) => matchAnswer(app.services, request.body, call));
    // Text skips the response serializer; MatchResponse documents it.
    return typeof answer === 'string' ? reply.type('application/json; charset=utf-8').send(answer as never) : answer;
  });
};

/** The answer of POST /match for a validated body (JSON text, or the no-match body as an object): every front door's. */
export async function matchAnswer(services: Services, body: MatchBody, call: RoutingCall) {
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
  const answer = await services.routing.match({ mode: routingMode, fixes, options }, call);
  return 'body' in answer ? answer.body : matchJson(answer.matched);
}
