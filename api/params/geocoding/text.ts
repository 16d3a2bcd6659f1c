import { MAX_QUERY_CHARS } from '../../../schemas/geocoding-api.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

export const Q_REQUIRED = 'q required';

/** q: required; whitespace alone counts as missing. Trimmed, at most 500 characters. */
export function sanitizeQ(raw: unknown): Checked<string> {
  if (typeof raw !== 'string' || raw.trim() === '') return reject(Q_REQUIRED);
  const q = raw.trim();
  if ([...q].length > MAX_QUERY_CHARS) return reject(`q must be at most ${MAX_QUERY_CHARS} characters`);
  return accept(q);
}

const LANGUAGE_TAG = /^([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*$/;

/**
 * lang: a language code, default en. A regional tag counts as its language (fr-CA is fr): the
 * corpus labels are keyed by language only.
 */
export function sanitizeLang(raw: unknown): Checked<string> {
  if (raw === undefined) return accept('en');
  const text = typeof raw === 'string' ? raw.trim().toLowerCase() : null;
  if (text === '') return accept('en');
  const m = text === null ? null : LANGUAGE_TAG.exec(text);
  if (!m) return reject('lang must be a language code such as en or fr');
  return accept(m[1]!);
}
