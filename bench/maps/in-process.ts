/**
 * The in-process ceilings of the serving benchmark: what the routes do for an answer, called
 * directly, one call at a time (style generation, glyph and sprite lookups) with per-call
 * latencies for percentiles.
 */
import type { Assets } from '../../engines/assets/assets.ts';
import type { Catalog } from '../../engines/catalog/catalog.ts';
import { buildStyle } from '../../engines/styles/build-style.ts';
import type { OverlayInfo, OverlayResolver } from '../../engines/styles/overlays.ts';
import { latencySummary, type LatencySummary } from '../transit/http-latency.ts';
import type { StyleCall } from './request-mix.ts';

/** Calls `fn` over `items` in turn, one at a time, for `seconds`: rate and latency percentiles. */
export function timedCalls<T>(items: readonly T[], seconds: number, fn: (item: T) => unknown): LatencySummary {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  for (let i = 0; performance.now() < deadline; i++) {
    const t = performance.now();
    fn(items[i % items.length]!);
    latencies.push(performance.now() - t);
  }
  return latencySummary(latencies, (performance.now() - started) / 1000);
}

/** The catalog half of services/maps/style-overlays.ts (the bench has no uploads), and the ids it knows. */
export function catalogOverlays(catalog: Catalog): { resolve: OverlayResolver; ids: string[] } {
  const known = new Map<string, OverlayInfo>();
  for (const row of catalog.rows()) {
    const band = row.archives[0];
    const sourceLayers = row.source_layers?.map((s) => s.id) ?? (row.source_layer ? [row.source_layer] : []);
    if (band && catalog.hasArchive(band.id)) known.set(row.id, { sourceLayers, minzoom: band.minzoom, maxzoom: band.maxzoom });
  }
  return { resolve: (ref) => (ref.kind === 'catalog' ? known.get(ref.id) : undefined), ids: [...known.keys()] };
}

/** buildStyle as the route calls it (no terrain release enabled), optionally with the JSON encoding of the answer. */
export function styleCall(baseUrl: string, key: string, resolveOverlay: OverlayResolver, encode: boolean): (call: StyleCall) => unknown {
  return (call) => {
    const document = buildStyle({ style: call.style, baseUrl, key, ...call.query, resolveOverlay, archives: { terrain: false, contours: false } });
    return encode ? JSON.stringify(document) : document;
  };
}

/** The glyph answer of `/glyphs/{v}/{stack}/{range}.pbf` straight from the open release. */
export function glyphCall(assets: Assets): (request: { fonts: string[]; start: number }) => unknown {
  return ({ fonts, start }) => {
    const answer = assets.glyphRange(fonts, start);
    if (!answer.ok) throw new Error(`unknown font ${answer.unknownFont}`);
    return answer.gzipped;
  };
}

export function spriteCall(assets: Assets): (file: string) => unknown {
  return (file) => {
    const bytes = assets.spriteFile(file);
    if (!bytes) throw new Error(`no sprite file ${file}`);
    return bytes;
  };
}
