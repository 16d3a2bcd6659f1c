import { accept, reject, type Checked } from '../../../lib/checked.ts';

/**
 * Reverse geocoding's layers: absent (named places) or legal_land (the survey cells holding the
 * point, legal-land add-on). Case-insensitive; anything else is a 400 naming the value.
 */
export function sanitizeReverseLayers(raw: unknown): Checked<'places' | 'legal_land'> {
  if (raw === undefined) return accept('places');
  if (typeof raw !== 'string') return reject('layers must be given once');
  const names = [...new Set(raw.split(',').map((v) => v.trim().toLowerCase()).filter((v) => v !== ''))];
  if (names.length === 0) return accept('places');
  const unknown = names.find((n) => n !== 'legal_land');
  if (unknown !== undefined) return reject(`layers has an unknown layer ${JSON.stringify(unknown)}; reverse geocoding takes legal_land (or no layers for named places)`);
  return accept('legal_land');
}
