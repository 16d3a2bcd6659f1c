import type { Pool } from '../../lib/postgres.ts';
import type { ByodKind } from '../../schemas/byod-api.ts';
import type { ByodFiles, ReceivedFile } from './files.ts';
import { newOverlayId } from '../../engines/byod/overlay-id.ts';
import { insertWithinQuota, type OverlayRow } from './store.ts';
import type { UploadChecker } from '../../engines/byod/upload-checker.ts';

/**
 * A received upload → a stored overlay: check it on a worker thread (GeoJSON or PMTiles,
 * QueryError naming what is wrong or which bound it exceeds), move it under its new id, then insert its row within the owner's quota. The file goes
 * first so a visible row always has its bytes; a refused insert removes the file again.
 */

export interface UploadToAccept {
  received: ReceivedFile;
  kind: ByodKind;
  name: string;
  owner: string;
  now: Date;
  limit: number;
}

export type AcceptResult = { stored: true; overlay: OverlayRow } | { stored: false; reason: 'quota' };

/** Tells a PMTiles archive from anything else by its magic bytes (multipart parts carry no reliable type). */
export function sniffKind(head: Buffer): ByodKind {
  return head.subarray(0, 7).toString('latin1') === 'PMTiles' ? 'pmtiles' : 'geojson';
}

export async function acceptUpload(pool: Pool, files: ByodFiles, checker: UploadChecker, upload: UploadToAccept): Promise<AcceptResult> {
  const archive = await checker.check(upload.received.path, upload.kind);
  const tiles: Parameters<typeof insertWithinQuota>[1]['tiles'] = archive
    ? { minZoom: archive.minZoom, maxZoom: archive.maxZoom, bounds: archive.bounds, layers: archive.layers }
    : null;
  const id = newOverlayId();
  await files.commit(upload.received.path, files.sourcePath(id, upload.kind));
  let overlay: OverlayRow | null;
  try {
    overlay = await insertWithinQuota(pool, {
      id, owner: upload.owner, name: upload.name, kind: upload.kind, bytes: upload.received.bytes,
      sha256: upload.received.sha256, createdAt: upload.now, tiles,
    }, upload.limit);
  } catch (err) {
    await files.removeOverlay(id);
    throw err;
  }
  if (!overlay) {
    await files.removeOverlay(id);
    return { stored: false, reason: 'quota' };
  }
  return { stored: true, overlay };
}
