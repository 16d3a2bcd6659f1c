import { isOverlayId } from '../../engines/byod/overlay-id.ts';
import { LruMap } from '../../lib/lru-map.ts';
import { overlayOwner } from '../../engines/byod/owner.ts';
import { buildTileJson } from '../../engines/tiles/tilejson.ts';
import { tileUrlTemplate, type TileUrlOrigin } from '../../engines/tiles/tile-url.ts';
import { UploadChecker, UploadCheckUnavailableError } from '../../engines/byod/upload-checker.ts';
import { errors, type Refusal } from '../../lib/errors.ts';
import { acceptUpload, type AcceptResult, type UploadToAccept } from '../../io/byod/accept-upload.ts';
import { ByodFiles } from '../../io/byod/files.ts';
import { OpenArchives } from '../../io/byod/open-archives.ts';
import { OverlayArchiveError } from '../../io/byod/overlay-archive.ts';
import { countOverlays, deleteOverlay, getOverlay, listOverlays, type OverlayRow } from '../../io/byod/store.ts';
import { BYOD_QUOTA_FULL, type ByodKind } from '../../schemas/byod-api.ts';
import type { TileJson } from '../../schemas/tiles-api.ts';
import type { ServiceDeps, ServiceLog } from '../deps.ts';

/** Who asks: the API key (its account, if any, owns the uploads). */
export interface OverlayCaller { id: string; accountId: string | null }

const GZIP = 2;
export const READY_ROW_TTL_MS = 5000;
const READY_ROWS_KEPT = 10_000;

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
   * As find, for tile requests: a ready overlay (which changes only by being deleted) is trusted
   * for READY_ROW_TTL_MS, so its tiles cost no Postgres round trip; deleted through this process
   * it is gone at once, through another within that time.
   */
  findForTiles(caller: OverlayCaller, id: string): Promise<OverlayRow | null>;
  /**
   * A checked upload stored as the caller's overlay; 400 when the quota filled meanwhile, 503 when
   * the check could not run (logged as a warning; nothing stored).
   */
  accept(caller: OverlayCaller, upload: Omit<UploadToAccept, 'owner'>, log: ServiceLog): Promise<OverlayRow>;
  /** The row's kind when deleted, else null; the files go after the row (left to the sweep on failure). */
  remove(caller: OverlayCaller, id: string): Promise<ByodKind | null>;
  /** A tile of a ready overlay's archive; throws a tile 400 when the archive is over the upload bounds. */
  tile(row: OverlayRow, z: number, x: number, y: number): Promise<OverlayTile>;
  /** The TileJSON 3.0.0 of the caller's ready overlay, its tile URLs at `origin`; 404 unknown, another account's or not tiled. */
  tileJson(caller: OverlayCaller, id: string, origin: TileUrlOrigin): Promise<TileJson>;
  close(): Promise<void>;
}

/** Uploaded overlays ("own data"): rows in Postgres, files under BYOD_DIR, each answer the caller's own. */
export function createByodService(deps: ServiceDeps): ByodService {
  const files = new ByodFiles(deps.config.byodDir);
  const archives = new OpenArchives({ hot: deps.hotTiles });
  const checker = new UploadChecker();
  const owner = overlayOwner;
  const readyRows = new LruMap<string, { row: OverlayRow; until: number }>(READY_ROWS_KEPT);
  // Only an archive stored before the upload bounds were enforced can be over them.
  const cannotServe = (row: OverlayRow, err: unknown, refusal: (message: string) => Refusal) =>
    (err instanceof OverlayArchiveError ? refusal(`overlay ${row.id} cannot be served: ${err.message}; delete it`) : err);
  return {
    files,
    count: (caller) => countOverlays(deps.pool, owner(caller)),
    list: (caller) => listOverlays(deps.pool, owner(caller)),
    find: async (caller, id) => (isOverlayId(id) ? getOverlay(deps.pool, owner(caller), id) : null),
    async findForTiles(caller, id) {
      if (!isOverlayId(id)) return null;
      const key = `${owner(caller)} ${id}`;
      const kept = readyRows.get(key);
      if (kept && kept.until > deps.now()) return kept.row;
      const row = await getOverlay(deps.pool, owner(caller), id);
      if (row?.status === 'ready') readyRows.set(key, { row, until: deps.now() + READY_ROW_TTL_MS });
      return row;
    },
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
      readyRows.delete(`${owner(caller)} ${id}`);
      if (kind) archives.forget(id);
      return kind;
    },
    async tile(row, z, x, y) {
      const archive = await archives.get(row.id, files.archivePath(row.id, row.kind));
      const bytes = await archive.tile(z, x, y).catch((err: unknown) => {
        throw cannotServe(row, err, errors.tileBadRequest);
      });
      return { bytes, gzip: archive.header.tileCompression === GZIP };
    },
    async tileJson(caller, id, origin) {
      const row = isOverlayId(id) ? await getOverlay(deps.pool, owner(caller), id) : null;
      if (!row) throw errors.notFound('overlay not found');
      if (row.status !== 'ready') throw errors.notFound(`overlay ${id} has no tiles: ${row.status === 'failed' ? 'its tiling failed' : 'it is still being tiled'}`);
      const archive = await archives.get(row.id, files.archivePath(row.id, row.kind));
      const metadata = await archive.metadata().catch((err: unknown) => {
        throw cannotServe(row, err, errors.badRequest);
      });
      return buildTileJson({
        tiles: tileUrlTemplate(origin.baseUrl, `byod/${row.id}`, origin.key),
        archive: { header: archive.header, metadata },
        name: row.name,
        ...(row.min_zoom === null ? {} : { minzoom: row.min_zoom }),
        ...(row.max_zoom === null ? {} : { maxzoom: row.max_zoom }),
        ...(row.bounds === null ? {} : { bounds: row.bounds }),
      });
    },
    async close() {
      await archives.close();
      await checker.close();
    },
  };
}
