import type { IncomingHttpHeaders } from 'node:http';

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

/** Whether a key's allowed-origins list lets this request through; an empty list is unrestricted. */
export function originAllowed(allowedOrigins: readonly string[], headers: IncomingHttpHeaders): boolean {
  if (allowedOrigins.length === 0) return true;
  const caller = callerOrigin(headers);
  return caller.state === 'present' && allowedOrigins.includes(caller.origin);
}
