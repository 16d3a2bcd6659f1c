import { isOverlayId } from '../../engines/byod/overlay-id.ts';
import { overlayOwner } from '../../engines/byod/owner.ts';
import { UploadChecker, UploadCheckUnavailableError } from '../../engines/byod/upload-checker.ts';
import { errors } from '../../lib/errors.ts';
import { acceptUpload, type AcceptResult, type UploadToAccept } from '../../io/byod/accept-upload.ts';
import { ByodFiles } from '../../io/byod/files.ts';
import { OpenArchives } from '../../io/byod/open-archives.ts';
import { OverlayArchiveError } from '../../io/byod/overlay-archive.ts';
import { countOverlays, deleteOverlay, getOverlay, listOverlays, type OverlayRow } from '../../io/byod/store.ts';
import { BYOD_QUOTA_FULL, type ByodKind } from '../../schemas/byod-api.ts';
import type { ServiceDeps, ServiceLog } from '../deps.ts';

/** Who asks: the API key (its account, if any, owns the uploads). */
export interface OverlayCaller { id: string; accountId: string | null }

const GZIP = 2;

/** A stored tile of an overlay's archive and how its bytes are encoded; null bytes: no tile there. */
export interface OverlayTile { bytes: Buffer | null; gzip: boolean }

export interface ByodService {
  /** Where uploads are streamed to and stored (the upload body parsers write here). */
  files: ByodFiles;
  count(caller: OverlayCaller): Promise<number>;
  list(caller: OverlayCaller): Promise<OverlayRow[]>;
  /** The caller's overlay, or null (an id of the wrong shape, another account's, or gone). */
  find(caller: OverlayCaller, id: string): Promise<OverlayRow | null>;
  /**
   * A checked upload stored as the caller's overlay; 400 when the quota filled meanwhile, 503 when
   * the check could not run (logged as a warning; nothing stored).
   */
  accept(caller: OverlayCaller, upload: Omit<UploadToAccept, 'owner'>, log: ServiceLog): Promise<OverlayRow>;
  /** The row's kind when deleted, else null; the files go after the row (left to the sweep on failure). */
  remove(caller: OverlayCaller, id: string): Promise<ByodKind | null>;
  /** A tile of a ready overlay's archive; throws a tile 400 when the archive is over the upload bounds. */
  tile(row: OverlayRow, z: number, x: number, y: number): Promise<OverlayTile>;
  close(): Promise<void>;
}

/** Uploaded overlays ("own data"): rows in Postgres, files under BYOD_DIR, each answer the caller's own. */
export function createByodService(deps: ServiceDeps): ByodService {
  const files = new ByodFiles(deps.config.byodDir);
  const archives = new OpenArchives();
  const checker = new UploadChecker();
  const owner = overlayOwner;
  return {
    files,
    count: (caller) => countOverlays(deps.pool, owner(caller)),
    list: (caller) => listOverlays(deps.pool, owner(caller)),
    find: async (caller, id) => (isOverlayId(id) ? getOverlay(deps.pool, owner(caller), id) : null),
    async accept(caller, upload, log) {
      let result: AcceptResult;
      try {
        result = await acceptUpload(deps.pool, files, checker, { ...upload, owner: owner(caller) });
      } catch (err) {
        if (!(err instanceof UploadCheckUnavailableError)) throw err;
        log.warn({ err }, 'upload: the check could not run; answered 503, nothing stored');
        throw errors.serviceUnavailable('upload checking');
      }
      if (!result.stored) throw errors.badRequest(BYOD_QUOTA_FULL);
      return result.overlay;
    },
    async remove(caller, id) {
      const kind = isOverlayId(id) ? await deleteOverlay(deps.pool, owner(caller), id) : null;
      if (kind) archives.forget(id);
      return kind;
    },
    async tile(row, z, x, y) {
      const archive = await archives.get(row.id, files.archivePath(row.id, row.kind));
      const bytes = await archive.tile(z, x, y).catch((err: unknown) => {
        // Only an archive stored before the upload bounds were enforced can be over them.
        if (err instanceof OverlayArchiveError) throw errors.tileBadRequest(`overlay ${row.id} cannot be served: ${err.message}; delete it`);
        throw err;
      });
      return { bytes, gzip: archive.header.tileCompression === GZIP };
    },
    async close() {
      await archives.close();
      await checker.close();
    },
  };
}
