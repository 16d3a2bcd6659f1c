import { TransitErrorResponse } from '../../../schemas/transit-api.ts';

const DESCRIPTIONS: Record<number, string> = {
  400: 'a parameter is malformed or out of range; error names it',
  404: 'no record with this id in the enabled release',
  503: 'no valid transit release is enabled (retryable, Retry-After: 5)',
};

/** The error answers a transit route documents in /openapi.json. */
export function errorResponses(...statuses: number[]): Record<number, typeof TransitErrorResponse> {
  return Object.fromEntries(statuses.map((s) => [s, { ...TransitErrorResponse, description: DESCRIPTIONS[s] }]));
}
