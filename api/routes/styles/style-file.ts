import { InvalidThemeError, UnknownStyleError } from '../../../engines/styles/style-errors.ts';
import { ALL_STYLE_NAMES, isCity, parsePaletteStyle } from '../../../engines/styles/style-names.ts';
import { decodeThemeCode } from '../../../engines/styles/theme-code.ts';
import { errors } from '../../../lib/errors.ts';

const JSON_SUFFIX = '.json';

/** The style a `/styles/{file}` path names: `<style>.json` (`.json` alone is the default style), else null. */
export function styleOfFile(file: string): string | null {
  return file.endsWith(JSON_SUFFIX) ? file.slice(0, -JSON_SUFFIX.length) : null;
}

/** The names buildStyle draws (engines/styles/build-style.ts `pathChoice`): a palette style, a legacy alias, a city, or '' (the default). */
export function isStyleName(style: string): boolean {
  return style === '' || isCity(style) || parsePaletteStyle(style) !== undefined;
}

/** The style route's refusals for what building a style throws: 404 unknown style, 400 invalid theme; anything else as it is. */
export function styleRefusal(err: unknown): unknown {
  if (err instanceof UnknownStyleError) return errors.unknownStyle(ALL_STYLE_NAMES);
  if (err instanceof InvalidThemeError) return errors.invalidTheme([...err.detail]);
  return err;
}

/**
 * The style a file names, checked without building it: refused as GET /styles/{file} refuses an
 * unknown style (404) or a theme code that does not decode (400). Overlays and profile are left to
 * the style request (they need the catalog and the caller's uploads).
 */
export function checkedStyle(file: string, theme: string | undefined): string {
  try {
    const style = styleOfFile(file);
    if (style === null || !isStyleName(style)) throw new UnknownStyleError(file, ALL_STYLE_NAMES);
    if (theme !== undefined && theme !== '') decodeThemeCode(theme);
    return style;
  } catch (err) {
    throw styleRefusal(err);
  }
}
