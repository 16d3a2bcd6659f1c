import { RoadEventsErrorResponse, RoadEventsQuery, RoadEventsResponse } from '../../../schemas/road-events-api.ts';

const ERRORS = {
  400: 'a parameter is malformed, out of range or names a jurisdiction not covered; error names it',
  503: 'no requested jurisdiction has a usable snapshot (retryable, Retry-After: 30)',
};

/** The schema of one road-events endpoint: same parameters and answers on all three. */
export function roadEventsSchema(summary: string, description: string) {
  return {
    tags: ['road events'],
    summary,
    description: `${description} Order: most severe first on the publisher's scale (MAJOR, MODERATE — served as severity unknown —, MINOR, ` +
      'then UNKNOWN or unmapped), then most recently updated by the publisher. Cache-Control: public, max-age=60. meta.status is current, ' +
      'stale (upstream answers but nothing changed for over an hour) or partial (a requested jurisdiction could not be reached; see meta.unavailable).',
    querystring: RoadEventsQuery,
    response: {
      200: RoadEventsResponse,
      400: { ...RoadEventsErrorResponse, description: ERRORS[400] },
      503: { ...RoadEventsErrorResponse, description: ERRORS[503] },
    },
  };
}
