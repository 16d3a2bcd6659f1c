import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The browser session of the account dashboard (/account/*): the cookie and the headers every
 * answer carries. Whose session it is, the account service says (services/account/).
 */

export const SESSION_COOKIE = 'canmap_session';
/** The cookie is only ever sent to the dashboard endpoints. */
const COOKIE_PATH = '/account';

/** /account and everything under it (query included); case-sensitive like the router. */
export function isAccountPath(url: string): boolean {
  if (!url.startsWith(COOKIE_PATH)) return false;
  const next = url.charCodeAt(COOKIE_PATH.length);
  return Number.isNaN(next) || next === 0x2f /* / */ || next === 0x3f /* ? */;
}

/** Not for embedding, caching or leaking the URL (the login token is in it) to other sites. */
export const ACCOUNT_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/**
 * Whether the browser reached us over TLS. The app does not set Fastify's trustProxy, so
 * `request.protocol` is https only on a TLS socket. Behind a TLS-terminating proxy the socket is
 * plain HTTP, so X-Forwarded-Proto is honoured too, but only to add Secure: a forged header can
 * only make the forger's own cookie stricter, never drop Secure from anyone else's.
 */
export function arrivedOverHttps(request: FastifyRequest): boolean {
  if (request.protocol === 'https') return true;
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

// Lax, not Strict: the login link is opened from mail (another site), and a Strict cookie set on
// that navigation is not sent along its redirect to /account/me. Every /account endpoint that
// changes state is a POST, which Lax never sends cross-site.
function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, sessionId: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', cookie(sessionId, maxAgeSeconds, arrivedOverHttps(request)));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', cookie('', 0, arrivedOverHttps(request)));
}

/** The session secret of the request's cookie, if any (the first, which is the most specific path's). */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
