/**
 * Theme codes (volume 3 "Style parameters", theme): a short preset, or `ut1.` followed by the
 * base64url (unpadded) of the theme JSON compressed as *raw* deflate (RFC 1951, no zlib header):
 * the smallest form and the one browsers produce with CompressionStream('deflate-raw').
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { InvalidThemeError } from './style-errors.ts';
import { THEME_PRESETS } from './theme-presets.ts';
import { themeProblems, type ThemeSpec } from './theme-schema.ts';

export const THEME_PREFIX = 'ut1.';
const MAX_CODE_CHARS = 4096;
const MAX_JSON_BYTES = 16_384;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export const BAD_PREFIX = 'code must start with "ut1." or be a short preset';
export const BAD_DEFLATE = 'code is not valid base64url deflate data';

function inflate(payload: string): Buffer {
  if (!BASE64URL.test(payload)) throw new InvalidThemeError([BAD_DEFLATE]);
  try {
    return inflateRawSync(Buffer.from(payload, 'base64url'), { maxOutputLength: MAX_JSON_BYTES });
  } catch (error) {
    const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    throw new InvalidThemeError(tooLarge ? [`theme JSON exceeds ${MAX_JSON_BYTES} bytes`] : [BAD_DEFLATE]);
  }
}

/** The theme a code stands for; throws InvalidThemeError with every problem found. */
export function decodeThemeCode(code: string): ThemeSpec {
  const preset = THEME_PRESETS.get(code);
  if (preset) return preset;
  if (!code.startsWith(THEME_PREFIX)) {
    const detail = [BAD_PREFIX];
    if (/^u[0-9a-z]*$/.test(code)) detail.push(`unknown short preset "${code}" (known: ${[...THEME_PRESETS.keys()].join(', ')})`);
    throw new InvalidThemeError(detail);
  }
  if (code.length > MAX_CODE_CHARS) throw new InvalidThemeError([`code is longer than ${MAX_CODE_CHARS} characters`]);
  const text = inflate(code.slice(THEME_PREFIX.length)).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidThemeError([`theme is not valid JSON: ${(error as Error).message}`]);
  }
  const problems = themeProblems(parsed);
  if (problems.length > 0) throw new InvalidThemeError(problems);
  return parsed as ThemeSpec;
}

/** The code for a theme, as a client would build it. */
export function encodeThemeCode(theme: ThemeSpec): string {
  return THEME_PREFIX + deflateRawSync(Buffer.from(JSON.stringify(theme), 'utf8')).toString('base64url');
}
