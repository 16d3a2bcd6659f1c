import type { IncomingHttpHeaders } from 'node:http';
import { honouredOrigins } from '../../lib/key-origins.ts';
import type { KeyRecord } from '../../lib/keys.ts';

export type CallerOrigin =
  | { state: 'absent' }
  | { state: 'unparseable' }
  | { state: 'present'; origin: string };

function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    // Opaque origins (the literal "null", file:, extension schemes) serialize as "null".
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The origin a request comes from: the Origin header, else the origin of Referer (volume 1, rule 5). */
export function callerOrigin(headers: IncomingHttpHeaders): CallerOrigin {
  const raw = headers.origin ?? headers.referer;
  if (raw === undefined || raw === '') return { state: 'absent' };
  const origin = originOf(raw);
  return origin === null ? { state: 'unparseable' } : { state: 'present', origin };
}

// The honoured origins of a key with a non-empty list, computed once per key record: the key
// cache replaces a record when it reloads it, so a plan change reaches this within the cache TTL.
const honoured = new WeakMap<KeyRecord, ReadonlySet<string>>();

function honouredSet(key: KeyRecord): ReadonlySet<string> {
  let set = honoured.get(key);
  if (set === undefined) {
    set = new Set(honouredOrigins(key.plan, key.allowedOrigins));
    honoured.set(key, set);
  }
  return set;
}

/**
 * Whether a key's allowed-origins list lets this request through; an empty list is unrestricted.
 * Only the origins the key's plan honours count (production origins over the allowance, e.g.
 * after a downgrade, do not); a non-empty list never becomes unrestricted, even with none honoured.
 */
export function originAllowed(key: KeyRecord, headers: IncomingHttpHeaders): boolean {
  if (key.allowedOrigins.length === 0) return true;
  const caller = callerOrigin(headers);
  return caller.state === 'present' && honouredSet(key).has(caller.origin);
}
