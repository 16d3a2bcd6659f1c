import { errors } from '../../errors.ts';

/** A routing parameter check: the value, or the 400 with its volume 1 code (invalid_location, ...). */
export type RoutingErrorCode = 'invalid_location' | 'invalid_mode' | 'invalid_route_option' | 'invalid_body' | 'too_many_locations';

export type Checked<T> = { ok: true; value: T } | { ok: false; code: RoutingErrorCode; error: string };

export const pass = <T>(value: T): Checked<T> => ({ ok: true, value });
export const fail = <T = never>(code: RoutingErrorCode, error: string): Checked<T> => ({ ok: false, code, error });

/** The value, or the 400 of volume 1 with its code, thrown for the error handler. */
export function valueOrThrow<T>(checked: Checked<T>): T {
  if (!checked.ok) throw errors.badRequest(checked.error, checked.code);
  return checked.value;
}
