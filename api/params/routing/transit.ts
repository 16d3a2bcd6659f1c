/** GET /route with mode=transit (volume 3): depart_at required, every road option refused. */
import type { RouteQuery } from '../../../schemas/routing-api.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';
import { sentOptions } from './options.ts';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

export function checkTransitQuery(query: RouteQuery): Checked<{ departAt: string }> {
  const option = sentOptions({ ...query, avoid: query.avoid === undefined ? undefined : [query.avoid] })[0];
  if (option) return reject(`${option} does not apply to mode=transit`, 'invalid_route_option');
  if (query.depart_at === undefined) return reject('depart_at is required for mode=transit', 'invalid_route_option');
  const text = query.depart_at.trim();
  if (!ISO_DATE_TIME.test(text) || Number.isNaN(Date.parse(text.length === 16 ? `${text}:00` : text))) {
    return reject('depart_at must be an ISO 8601 date-time, e.g. 2026-03-08T08:30 or 2026-03-08T08:30:00-05:00', 'invalid_route_option');
  }
  return accept({ departAt: text });
}
