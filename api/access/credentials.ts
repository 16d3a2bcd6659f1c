import type { FastifyRequest } from 'fastify';

/**
 * The API key a request presents, from the first form present in the spec's order:
 * `Authorization: Bearer`, then `X-API-Key`, then the `key` query parameter, then (optimization
 * paths only) the vendor-compatible `X-Goog-Api-Key`. An Authorization
 * header with another scheme is left to its owner (volume 1: X-API-Key exists for those clients).
 */
export function presentedKey(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^\s*bearer\s+(.*)$/i.exec(authorization);
    const token = match?.[1]?.trim();
    if (token) return token;
  }
  const header = request.headers['x-api-key'];
  const headerValue = (Array.isArray(header) ? header[0] : header)?.trim();
  if (headerValue) return headerValue;
  return queryKey(request) || vendorKey(request) || null;
}

/** The optimization endpoints' route-optimization clients send their key in the vendor's header (volume 1). */
const VENDOR_KEY_HEADER = 'x-goog-api-key';
const OPTIMIZATION_PATH = /^\/(?:optimize|(?:v1\/)?projects\/[^/?]+(?:\/locations\/[^/?]+)?)(?:\?|$)/;

function vendorKey(request: FastifyRequest): string | undefined {
  if (!OPTIMIZATION_PATH.test(request.url)) return undefined;
  const header = request.headers[VENDOR_KEY_HEADER];
  return (Array.isArray(header) ? header[0] : header)?.trim();
}

function queryKey(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | null | undefined;
  // Requests Fastify could not route (a malformed path) reach us without a parsed query.
  const value = query ? query.key : new URLSearchParams(request.url.split('?')[1] ?? '').get('key');
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : undefined;
}
