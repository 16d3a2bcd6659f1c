import type { OverlayRow } from '../../io/byod/store.ts';
import { BYOD_MAX_BYTES, BYOD_MAX_OVERLAYS, type ByodList, type ByodOverlay } from '../../schemas/byod-api.ts';

/** An overlay row as the API shows it (volume 3, "Uploaded overlay", plus its tiling state). */
export function overlayReply(row: OverlayRow, baseUrl: string): ByodOverlay {
  const self = `${baseUrl}/byod/${row.id}`;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    bytes: row.bytes,
    createdAt: row.created_at.toISOString(),
    url: `${self}/{z}/{x}/{y}`,
    overlay: `byod:${row.id}`,
    status: row.status,
    error: row.error,
    dataUrl: `${self}/data`,
    minzoom: row.min_zoom,
    maxzoom: row.max_zoom,
    bounds: row.bounds,
    layers: row.layers,
  };
}

export function listReply(rows: OverlayRow[], baseUrl: string): ByodList {
  return {
    overlays: rows.map((row) => overlayReply(row, baseUrl)),
    quota: { used: rows.length, limit: BYOD_MAX_OVERLAYS, remaining: Math.max(0, BYOD_MAX_OVERLAYS - rows.length), maxBytes: BYOD_MAX_BYTES },
  };
}
