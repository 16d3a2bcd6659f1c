/**
 * What a parameter sanitizer returns: the cleaned value, or a message naming the parameter that
 * the route answers as a 400 `{error}` (volume 1: data-plane 400s name the parameter at fault).
 */
export type Sanitized<T> = { ok: true; value: T } | { ok: false; error: string };

export const accept = <T>(value: T): Sanitized<T> => ({ ok: true, value });
export const reject = <T = never>(error: string): Sanitized<T> => ({ ok: false, error });
