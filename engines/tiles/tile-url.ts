/**
 * A tile URL template at the gateway for a map client: `{base}/{path}/{z}/{x}/{y}` with the caller's
 * key as the `key` query parameter (volume 1: a map client cannot attach headers to tile requests).
 * Style sources and TileJSON documents both write their tile URLs with it.
 */
export function tileUrlTemplate(baseUrl: string, path: string, key: string): string {
  return `${baseUrl}/${path}/{z}/{x}/{y}?key=${encodeURIComponent(key)}`;
}

/** Where a caller's tile URLs point: the gateway's public origin (no trailing slash) and the key it presented. */
export interface TileUrlOrigin {
  baseUrl: string;
  key: string;
}
