import { overlayOwner } from '../../engines/byod/owner.ts';
import type { Catalog } from '../../engines/catalog/catalog.ts';
import type { OverlayInfo, OverlayResolver } from '../../engines/styles/overlays.ts';
import { errors } from '../../lib/errors.ts';
import { getOverlay } from '../../io/byod/store.ts';
import { CATALOG_KIND } from '../../schemas/catalog-release.ts';
import type { OverlayCaller } from '../byod/index.ts';
import type { ServiceDeps } from '../deps.ts';

const tokens = (raw: string | undefined) => (raw ?? '').split(',').map((t) => t.trim()).filter(Boolean);

export interface StyleOverlays {
  resolve: OverlayResolver;
  /** Names what `resolve` answers: the catalog release and the uploads it read (a style cache key part). */
  fingerprint: string;
}

/**
 * What the style's overlays may name: the enabled catalog's layers (none when no catalog is
 * served) and the caller's own uploads. An upload named but gone (deleted, or another account's)
 * is a 404 (volume 3 "Uploaded overlay").
 */
export async function styleOverlays(deps: ServiceDeps, caller: OverlayCaller | null, overlays: string | undefined, profile: string | undefined): Promise<StyleOverlays> {
  const catalog = new Map<string, OverlayInfo>();
  let catalogRelease: string | null = null;
  if ((overlays || profile) && deps.releases.status()[CATALOG_KIND]?.state === 'ready') {
    await deps.releases.use(CATALOG_KIND, async (c: Catalog) => {
      catalogRelease = c.releaseId;
      for (const row of c.rows()) {
        const band = row.archives[0];
        const sourceLayers = row.source_layers?.map((s) => s.id) ?? (row.source_layer ? [row.source_layer] : []);
        if (band && c.hasArchive(band.id)) catalog.set(row.id, { sourceLayers, minzoom: band.minzoom, maxzoom: band.maxzoom });
      }
    });
  }
  const uploads = new Map<string, OverlayInfo>();
  for (const token of tokens(overlays).filter((t) => t.startsWith('byod:'))) {
    const row = caller ? await getOverlay(deps.pool, overlayOwner(caller), token.slice(5)) : null;
    if (!row) throw errors.notFound(`overlay ${token} not found`);
    uploads.set(row.id, { sourceLayers: row.layers, ...(row.min_zoom === null ? {} : { minzoom: row.min_zoom }), ...(row.max_zoom === null ? {} : { maxzoom: row.max_zoom }) });
  }
  return {
    resolve: (ref) => (ref.kind === 'catalog' ? catalog.get(ref.id) : uploads.get(ref.id)),
    fingerprint: JSON.stringify([catalogRelease, [...uploads]]),
  };
}
