import { parsePostcode } from '../../../engines/geocoding/text/postcode.ts';
import type { StructuredInput } from '../../../engines/geocoding/types.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

const blank = (raw: unknown) => raw === undefined || (typeof raw === 'string' && raw.trim() === '');

/** postalcode: a full Canadian postal code in any spacing or case → `A1A 1A1`. */
export function sanitizePostalcode(raw: unknown): Checked<string | undefined> {
  if (blank(raw)) return accept(undefined);
  const code = typeof raw === 'string' ? parsePostcode(raw) : null;
  if (code === null) return reject('postalcode must be a Canadian postal code such as K1A 0B1 (with or without the space)');
  return accept(code);
}

/** country: validated, not matched; only Canada is covered. */
export function sanitizeCountry(raw: unknown): Checked<'CA' | undefined> {
  if (blank(raw)) return accept(undefined);
  const text = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (text === 'CA' || text === 'CAN' || text === 'CANADA') return accept('CA');
  return reject('country must be CA: only Canadian addresses are covered');
}

/** A civic number, optionally with a letter or fraction, or a unit-civic pair (`401-43`, `12A`, `12 1/2`, `#4`). */
const CIVIC_TOKEN = /^#?\d+[a-z]?(?:[-/]\d+[a-z]?)*$/i;

/** address: a street line; one made of civic numbers alone has no street to look up. */
export function sanitizeAddressLine(raw: unknown): Checked<string | undefined> {
  if (blank(raw)) return accept(undefined);
  const text = String(raw).trim();
  const tokens = text.split(/[\s,]+/).filter((t) => t !== '');
  if (tokens.every((t) => CIVIC_TOKEN.test(t) || !/[\p{L}\p{N}]/u.test(t))) {
    return reject('address needs a street name, not only a civic number');
  }
  return accept(text);
}

/** The anchor fields of structured search; at least one of address, city, postalcode. */
export function sanitizeStructuredInput(query: { address?: unknown; city?: unknown; postalcode?: unknown }): Checked<StructuredInput> {
  const address = sanitizeAddressLine(query.address);
  if (!address.ok) return address;
  const postalcode = sanitizePostalcode(query.postalcode);
  if (!postalcode.ok) return postalcode;
  const city = blank(query.city) ? undefined : String(query.city).trim();
  if (address.value === undefined && city === undefined && postalcode.value === undefined) {
    return reject('structured search needs at least one of address, city or postalcode (region alone is not enough)');
  }
  return accept({
    ...(address.value !== undefined ? { address: address.value } : {}),
    ...(city !== undefined ? { city } : {}),
    ...(postalcode.value !== undefined ? { postalcode: postalcode.value } : {}),
  });
}
