import { BYOD_NAME_MAX_CHARS } from '../../../schemas/byod-api.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

/**
 * An overlay's display name. It is only ever shown back (files are named by id), so any text is
 * kept as given, trimmed and NFC-normalized; control characters and over-long names are refused
 * when the caller chose the name (query or form field), and cleaned up when it is a file name.
 */

// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

const chars = (s: string) => [...s].length;

/** The `name` query parameter or form field; `fallback` when absent or blank. */
export function sanitizeDisplayName(raw: string | undefined, fallback: string, param = 'name'): Checked<string> {
  if (raw === undefined) return accept(fallback);
  const name = raw.normalize('NFC').trim();
  if (CONTROL.test(name)) return reject(`${param} must not contain control characters`);
  if (name === '') return accept(fallback);
  const length = chars(name);
  if (length > BYOD_NAME_MAX_CHARS) return reject(`${param} must be at most ${BYOD_NAME_MAX_CHARS} characters (got ${length})`);
  return accept(name);
}

/** A multipart file name as the client sent it, made into a display name (never refused). */
export function displayNameOfFile(fileName: string | undefined): string | undefined {
  const name = fileName?.normalize('NFC').replace(CONTROLS, '').trim();
  return name ? [...name].slice(0, BYOD_NAME_MAX_CHARS).join('') : undefined;
}
