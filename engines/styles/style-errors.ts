/** What the style route turns into error replies. */
import { QueryError } from '../../lib/query-error.ts';

/** 404 `{error: 'unknown style', styles}`: the path names no style (the retired pixel-art one included). */
export class UnknownStyleError extends Error {
  override readonly name = 'UnknownStyleError';
  constructor(readonly style: string, readonly styles: readonly string[]) {
    super('unknown style');
  }
}

/** 400 `{error, code: 'invalid_theme', detail}`: the theme code does not decode or validate. */
export class InvalidThemeError extends QueryError {
  readonly code = 'invalid_theme';
  constructor(readonly detail: readonly string[]) {
    super('invalid theme');
  }
}

/** 400: an overlays entry the caller's catalog and overlay store do not know, or an unknown profile. */
export class UnknownOverlayError extends QueryError {}
