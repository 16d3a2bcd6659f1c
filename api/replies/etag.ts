/** One entity tag of a list: optionally weak (W/), then a quoted opaque string (RFC 9110 §8.8.3). */
const ENTITY_TAG = /(W\/)?"([^"]*)"/g;

/**
 * Whether an If-None-Match header matches the current ETag, so a GET answers 304 (RFC 9110
 * §13.1.2): `*` matches any current representation, and tags compare weakly — `W/"x"` matches
 * `"x"` — since a cached copy only needs to be the same content.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const current = opaqueTag(etag);
  for (const match of header.matchAll(ENTITY_TAG)) if (match[2] === current) return true;
  return false;
}

/** The opaque part of an ETag we send (`"x"` or `W/"x"` → `x`). */
function opaqueTag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}
