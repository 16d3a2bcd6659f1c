import { resolveRegion } from '../../../engines/geocoding/text/provinces.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

/** region: a province or territory in any spelling → its two-letter code; absent or blank → none. */
export function sanitizeRegion(raw: unknown): Checked<string | undefined> {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return accept(undefined);
  if (typeof raw !== 'string') return reject('region must be a province or territory name or code');
  const code = resolveRegion(raw.trim());
  if (code === null) {
    return reject(`region ${JSON.stringify(raw.trim())} is not a Canadian province or territory (use a name, abbreviation or two-letter code)`);
  }
  return accept(code);
}
