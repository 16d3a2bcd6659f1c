import { GeocodingErrorResponse } from '../../../schemas/geocoding-api.ts';

const DESCRIPTIONS: Record<number, string> = {
  400: 'a parameter is malformed, missing or unknown; error names it',
  403: 'addon_required: well and facility search needs the energy add-on (body adds capability, addon, message)',
  404: 'no place with this id (a malformed id answers the same)',
  413: 'payload_too_large: more than 100 queries',
  503: 'the geocoding data is not available (retryable); category search also answers 503 against a corpus built without categories',
};

/** The error answers a geocoding or places route documents in /openapi.json. */
export function errorResponses(...statuses: number[]): Record<number, typeof GeocodingErrorResponse> {
  return Object.fromEntries(statuses.map((s) => [s, { ...GeocodingErrorResponse, description: DESCRIPTIONS[s] }]));
}
