import { inTransaction, type Pool } from '../../lib/postgres.ts';
import type { ByodKind, ByodStatus } from '../../schemas/byod-api.ts';
import type { OverlayBounds } from '../../engines/byod/geojson.ts';

/** Uploaded overlays' metadata in Postgres (lib/migrations/009_byod.sql); the bytes are files (files.ts). */

export interface OverlayRow {
  id: string;
  owner: string;
  name: string;
  kind: ByodKind;
  bytes: number;
  sha256: string;
  status: ByodStatus;
  error: string | null;
  min_zoom: number | null;
  max_zoom: number | null;
  bounds: OverlayBounds | null;
  layers: string[];
  created_at: Date;
  tiled_at: Date | null;
}

const COLUMNS = 'id, owner, name, kind, bytes, sha256, status, error, min_zoom, max_zoom, bounds, layers, created_at, tiled_at';
// Any fixed number: the first key of the per-owner advisory lock (the second is the owner's hash).
const QUOTA_LOCK_CLASS = 4_242_009;

export interface NewOverlay {
  id: string;
  owner: string;
  name: string;
  kind: ByodKind;
  bytes: number;
  sha256: string;
  createdAt: Date;
  /** A PMTiles upload is served as it is: ready at once, with its archive's zooms, bounds and layers. */
  tiles: { minZoom: number; maxZoom: number; bounds: OverlayBounds; layers: string[] } | null;
}

/**
 * Stores an overlay unless its owner already has `limit`: count and insert under a per-owner
 * transaction lock, so of two uploads racing for the last place exactly one gets it.
 */
export async function insertWithinQuota(pool: Pool, overlay: NewOverlay, limit: number): Promise<OverlayRow | null> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [QUOTA_LOCK_CLASS, overlay.owner]);
    const { rows: [count] } = await client.query<{ n: number }>('SELECT count(*) AS n FROM byod_overlays WHERE owner = $1', [overlay.owner]);
    if (count!.n >= limit) return null;
    const t = overlay.tiles;
    const { rows } = await client.query<OverlayRow>(
      `INSERT INTO byod_overlays (id, owner, name, kind, bytes, sha256, status, min_zoom, max_zoom, bounds, layers, created_at, tiled_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
      [overlay.id, overlay.owner, overlay.name, overlay.kind, overlay.bytes, overlay.sha256, t ? 'ready' : 'processing',
        t?.minZoom ?? null, t?.maxZoom ?? null, t?.bounds ?? null, t?.layers ?? [], overlay.createdAt, t ? overlay.createdAt : null],
    );
    return rows[0]!;
  });
}

export async function countOverlays(pool: Pool, owner: string): Promise<number> {
  const { rows: [count] } = await pool.query<{ n: number }>('SELECT count(*) AS n FROM byod_overlays WHERE owner = $1', [owner]);
  return count!.n;
}

/** The owner's overlay; null for an unknown id and for another owner's alike. */
export async function getOverlay(pool: Pool, owner: string, id: string): Promise<OverlayRow | null> {
  const { rows } = await pool.query<OverlayRow>(`SELECT ${COLUMNS} FROM byod_overlays WHERE id = $1 AND owner = $2`, [id, owner]);
  return rows[0] ?? null;
}

/** Newest first. */
export async function listOverlays(pool: Pool, owner: string): Promise<OverlayRow[]> {
  const { rows } = await pool.query<OverlayRow>(`SELECT ${COLUMNS} FROM byod_overlays WHERE owner = $1 ORDER BY created_at DESC, id`, [owner]);
  return rows;
}

/** Removes the owner's overlay row; its kind when there was one (the caller then removes its files). */
export async function deleteOverlay(pool: Pool, owner: string, id: string): Promise<ByodKind | null> {
  const { rows } = await pool.query<{ kind: ByodKind }>('DELETE FROM byod_overlays WHERE id = $1 AND owner = $2 RETURNING kind', [id, owner]);
  return rows[0]?.kind ?? null;
}

// ---- the tiling job's side --------------------------------------------------------------------

/** Any owner's overlay, for the tiling job. */
export async function overlayById(pool: Pool, id: string): Promise<OverlayRow | null> {
  const { rows } = await pool.query<OverlayRow>(`SELECT ${COLUMNS} FROM byod_overlays WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Records finished tiles; false when the overlay was deleted meanwhile (the caller removes the archive). */
export async function markTiled(pool: Pool, id: string, tiles: { minZoom: number; maxZoom: number; bounds: OverlayBounds; layers: string[] }, at: Date): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE byod_overlays SET status = 'ready', error = NULL, min_zoom = $2, max_zoom = $3, bounds = $4, layers = $5, tiled_at = $6
     WHERE id = $1 AND status = 'processing'`,
    [id, tiles.minZoom, tiles.maxZoom, tiles.bounds, tiles.layers, at],
  );
  return rowCount === 1;
}

export async function markFailed(pool: Pool, id: string, error: string): Promise<void> {
  await pool.query(`UPDATE byod_overlays SET status = 'failed', error = $2 WHERE id = $1 AND status = 'processing'`, [id, error.slice(0, 500)]);
}

/** Uploads still waiting for tiles, created before `before` (the sweep re-enqueues them). */
export async function processingOverlays(pool: Pool, before: Date): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM byod_overlays WHERE status = 'processing' AND created_at < $1 ORDER BY created_at LIMIT 1000`, [before]);
  return rows.map((r) => r.id);
}

/** Which of these ids have a row (the sweep removes files of the others). */
export async function existingIds(pool: Pool, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM byod_overlays WHERE id = ANY($1::text[])', [ids]);
  return new Set(rows.map((r) => r.id));
}
