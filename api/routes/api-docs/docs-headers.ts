import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StaticFile } from '../../replies/static-files.ts';
import { ifNoneMatchHits } from '../../replies/etag.ts';

/**
 * Only the page's own scripts run; Swagger UI sets inline styles, hence 'unsafe-inline' for
 * styles only. It talks to its own origin and to the document's server (BASE_URL); images may
 * be blob: URLs (image answers shown by "Try it out").
 */
export function docsCsp(baseUrl: string): string {
  const server = originOf(baseUrl);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self'${server === null ? '' : ` ${server}`}`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Sends one docs file with its security and cache headers, or 304 to a current ETag. */
export function sendDocsFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile, csp: string): FastifyReply {
  reply
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    // The page URL may carry the key: a Referer holds the origin only, never the query.
    .header('referrer-policy', 'strict-origin')
    .header('cache-control', file.cacheControl)
    .header('etag', file.etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  return reply.type(file.contentType).send(file.body);
}
