import { errors } from './errors.ts';

/**
 * The one result of checking a request or one of its parameters: the typed value, or the refusal
 * message (naming the parameter at fault) with the contract's code where it lists one
 * (invalid_location, invalid_body, ...). Every domain's checks return this.
 */
export type Checked<T> =
  | { ok: true; value: T }
  /** `issues`: every problem found, where a check reports more than one (optimization's validationErrors). */
  | { ok: false; error: string; code?: string; issues?: readonly unknown[] };

export const accept = <T>(value: T): Checked<T> => ({ ok: true, value });
export const reject = <T = never>(error: string, code?: string): Checked<T> =>
  (code === undefined ? { ok: false, error } : { ok: false, error, code });

/** The value, or the 400 refusal (with its code) thrown for the error handler. */
export function valueOrThrow<T>(checked: Checked<T>): T {
  if (!checked.ok) throw errors.badRequest(checked.error, checked.code);
  return checked.value;
}
