import path from 'node:path';
import type { ClientBase, Pool } from 'pg';
import { inTransaction } from '../lib/postgres.ts';
import type { Manifest } from '../schemas/manifest.ts';
import { ReleaseError } from './errors.ts';
import { checkStoredRelease } from './object-store/check-release.ts';
import type { ReleaseBucket } from './object-store/s3-client.ts';
import { describeFall, fallenCounts, ShrinkRefusedError } from './shrink.ts';
import { verifyReleaseDir } from './verify.ts';

export const RELEASE_ENABLED_CHANNEL = 'canmap_release_enabled';

export interface RegisteredRelease {
  id: string;
  kind: string;
  contentHash: string;
  path: string;
  manifest: Manifest;
  createdAt: Date;
}

export { ReleaseError };

interface ReleaseRow {
  id: string;
  kind: string;
  content_hash: string;
  path: string;
  manifest: Manifest;
  created_at: Date;
}

const COLUMNS = 'r.id, r.kind, r.content_hash, r.path, r.manifest, r.created_at';

function toRelease(row: ReleaseRow): RegisteredRelease {
  return { id: row.id, kind: row.kind, contentHash: row.content_hash, path: row.path, manifest: row.manifest, createdAt: row.created_at };
}

export async function registerRelease(pool: Pool, dir: string, manifest: Manifest): Promise<RegisteredRelease> {
  const { rows } = await pool.query<ReleaseRow>(
    `INSERT INTO releases AS r (id, kind, content_hash, path, manifest, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET path = EXCLUDED.path
     RETURNING ${COLUMNS}`,
    [manifest.id, manifest.kind, manifest.content_hash, path.resolve(dir), manifest, manifest.created_at],
  );
  return toRelease(rows[0]!);
}

export async function getRelease(pool: Pool | ClientBase, id: string): Promise<RegisteredRelease | null> {
  const { rows } = await pool.query<ReleaseRow>(`SELECT ${COLUMNS} FROM releases r WHERE r.id = $1`, [id]);
  return rows[0] ? toRelease(rows[0]) : null;
}

export async function findReleaseByHash(pool: Pool, kind: string, contentHash: string): Promise<RegisteredRelease | null> {
  const { rows } = await pool.query<ReleaseRow>(`SELECT ${COLUMNS} FROM releases r WHERE r.kind = $1 AND r.content_hash = $2`, [kind, contentHash]);
  return rows[0] ? toRelease(rows[0]) : null;
}

export async function getEnabledRelease(pool: Pool | ClientBase, kind: string): Promise<RegisteredRelease | null> {
  const { rows } = await pool.query<ReleaseRow>(
    `SELECT ${COLUMNS} FROM enabled_releases e JOIN releases r ON r.id = e.release_id WHERE e.kind = $1`,
    [kind],
  );
  return rows[0] ? toRelease(rows[0]) : null;
}

export interface ReleaseListing extends RegisteredRelease {
  enabled: boolean;
}

export async function listReleases(pool: Pool, kind?: string): Promise<ReleaseListing[]> {
  const { rows } = await pool.query<ReleaseRow & { enabled: boolean }>(
    `SELECT ${COLUMNS}, (e.release_id IS NOT NULL) AS enabled
       FROM releases r LEFT JOIN enabled_releases e ON e.release_id = r.id
      WHERE $1::text IS NULL OR r.kind = $1
      ORDER BY r.kind, r.created_at DESC, r.id DESC`,
    [kind ?? null],
  );
  return rows.map((row) => ({ ...toRelease(row), enabled: row.enabled }));
}

export interface HistoryEntry {
  kind: string;
  /** refused: an enable refused because counts fell (previousReleaseId is then the release it was compared with). */
  action: 'enable' | 'rollback' | 'refused';
  releaseId: string;
  previousReleaseId: string | null;
  actor: string;
  at: Date;
  /** Which counts fell, on a refusal or an enable allowed to shrink them. */
  note: string | null;
}

/**
 * A kind's history of enables, rollbacks and refused enables, newest first; with releaseId, the rows
 * that name it: those that enabled, replaced or refused it, and refusals measured against it.
 */
export async function releaseHistory(pool: Pool, kind: string, options: { releaseId?: string; limit?: number } = {}): Promise<HistoryEntry[]> {
  const { rows } = await pool.query(
    `SELECT kind, action, release_id, previous_release_id, actor, at, note FROM release_history
      WHERE kind = $1 AND ($2::text IS NULL OR release_id = $2 OR previous_release_id = $2)
      ORDER BY id DESC LIMIT $3`,
    [kind, options.releaseId ?? null, options.limit ?? 50],
  );
  return rows.map((r) => ({ kind: r.kind, action: r.action, releaseId: r.release_id, previousReleaseId: r.previous_release_id, actor: r.actor, at: r.at, note: r.note }));
}

/**
 * Local files: every checksum. A store: its copy's manifest, objects, sizes and stored sha256
 * metadata (each API node hashes every file it downloads before serving it).
 */
async function assertServable(release: RegisteredRelease, store: ReleaseBucket | null | undefined): Promise<void> {
  const check = store
    ? await checkStoredRelease(store, release, { hash: false })
    : await verifyReleaseDir(release.path, { expectedId: release.id, expectedManifest: release.manifest });
  if (!check.ok) throw new ReleaseError(`release ${release.id} fails verification${store ? ' in the release store' : ''}, not enabled: ${check.problems.join('; ')}`);
}

/**
 * Points the kind at the release, records who did it and what was enabled before, and NOTIFYs
 * the API in the same transaction (the notification is delivered on commit).
 */
async function pointKindAt(client: ClientBase, release: RegisteredRelease, action: 'enable' | 'rollback', previousId: string | null, actor: string, note: string | null = null) {
  await client.query(
    `INSERT INTO enabled_releases (kind, release_id, enabled_at, enabled_by) VALUES ($1, $2, now(), $3)
     ON CONFLICT (kind) DO UPDATE SET release_id = EXCLUDED.release_id, enabled_at = now(), enabled_by = EXCLUDED.enabled_by`,
    [release.kind, release.id, actor],
  );
  await recordHistory(client, release, action, previousId, actor, note);
  await notifyEnabled(client, release);
}

async function recordHistory(client: ClientBase, release: RegisteredRelease, action: HistoryEntry['action'], previousId: string | null, actor: string, note: string | null) {
  await client.query(
    'INSERT INTO release_history (kind, action, release_id, previous_release_id, actor, note) VALUES ($1, $2, $3, $4, $5, $6)',
    [release.kind, action, release.id, previousId, actor, note],
  );
}

/** Delivered on commit; the API reloads the kind and re-verifies a release it had refused. */
async function notifyEnabled(client: ClientBase, release: RegisteredRelease): Promise<void> {
  await client.query('SELECT pg_notify($1, $2)', [RELEASE_ENABLED_CHANNEL, JSON.stringify({ kind: release.kind, id: release.id })]);
}

/** Serializes enable, rollback and prune of one kind; returns what is enabled now. */
async function lockKind(client: ClientBase, kind: string): Promise<string | null> {
  return (await lockKindRelease(client, kind))?.id ?? null;
}

async function lockKindRelease(client: ClientBase, kind: string): Promise<RegisteredRelease | null> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`canmap-release-kind:${kind}`]);
  return getEnabledRelease(client, kind);
}

export interface EnableOptions {
  /** Enable even when counts fall by more than MAX_SHRINK from the enabled release's (recorded in the history note). */
  allowShrink?: boolean;
  /** RELEASE_STORE: the release is checked there rather than in this host's RELEASES_DIR. */
  store?: ReleaseBucket | null;
}

/**
 * Verifies the release and points its kind at it. Refuses (ShrinkRefusedError, recorded in the
 * history as `refused`) when one of its counts falls by more than MAX_SHRINK from the enabled
 * release's, unless `allowShrink`: every way of enabling a release goes through here.
 */
export async function enableRelease(pool: Pool, id: string, actor: string, options: EnableOptions = {}): Promise<RegisteredRelease> {
  const release = await getRelease(pool, id);
  if (!release) throw new ReleaseError(`unknown release ${id}`);
  await assertServable(release, options.store);
  const refusal = await inTransaction(pool, async (client) => {
    const current = await lockKindRelease(client, release.kind);
    // Enabling the enabled release again records nothing, but lets the API serve it again if it
    // had refused it and it was repaired in place (assertServable has just verified it).
    if (current?.id === release.id) {
      await notifyEnabled(client, release);
      return null;
    }
    const fallen = current ? fallenCounts(current.manifest, release.manifest) : [];
    const note = fallen.length ? fallen.map(describeFall).join(', ') : null;
    if (current && fallen.length && !options.allowShrink) {
      await recordHistory(client, release, 'refused', current.id, actor, note);
      return new ShrinkRefusedError(release.kind, release.id, current.id, fallen);
    }
    await pointKindAt(client, release, 'enable', current?.id ?? null, actor, note);
    return null;
  });
  if (refusal) throw refusal;
  return release;
}

/**
 * Re-enables the release that was enabled before the current one was last enabled. Repeated
 * rollbacks walk further back, because a rolled-back-to release's own predecessor is again
 * taken from its last *enable*. The shrink guard does not apply: the target was in service
 * before, and stepping back from a bad release often means fewer of everything.
 */
export async function rollbackKind(pool: Pool, kind: string, actor: string, options: { store?: ReleaseBucket | null } = {}): Promise<{ from: string; to: RegisteredRelease }> {
  const target = await rollbackTarget(pool, kind);
  // Checksums take a while on big releases: verify before holding the kind's lock.
  await assertServable(target.release, options.store);
  return inTransaction(pool, async (client) => {
    const current = await lockKind(client, kind);
    if (current !== target.from) throw new ReleaseError(`${kind} changed while rolling back (now ${current ?? 'unset'}); try again`);
    await pointKindAt(client, target.release, 'rollback', current, actor);
    return { from: current, to: target.release };
  });
}

async function rollbackTarget(pool: Pool, kind: string): Promise<{ from: string; release: RegisteredRelease }> {
  const current = (await getEnabledRelease(pool, kind))?.id;
  if (!current) throw new ReleaseError(`no ${kind} release is enabled`);
  const previousId = await predecessorOf(pool, kind, current);
  if (!previousId) throw new ReleaseError(`${kind} release ${current} has no earlier release to roll back to`);
  const release = await getRelease(pool, previousId);
  if (!release) throw new ReleaseError(`previous ${kind} release ${previousId} was pruned; enable another one explicitly`);
  return { from: current, release };
}

/** What was enabled just before `id` was last enabled (its rollback target). */
export async function predecessorOf(client: Pool | ClientBase, kind: string, id: string): Promise<string | null> {
  const { rows } = await client.query<{ previous_release_id: string | null }>(
    `SELECT previous_release_id FROM release_history
      WHERE kind = $1 AND release_id = $2 AND action = 'enable' ORDER BY id DESC LIMIT 1`,
    [kind, id],
  );
  return rows[0]?.previous_release_id ?? null;
}

/**
 * Deletes a release's registry row unless it is enabled or the enabled one's rollback target,
 * checked under the kind's lock so a concurrent enable cannot slip in. True when deleted:
 * only then may the caller remove its files.
 */
export async function deleteRelease(pool: Pool, release: { id: string; kind: string }): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const enabled = await lockKind(client, release.kind);
    if (enabled && (release.id === enabled || release.id === (await predecessorOf(client, release.kind, enabled)))) return false;
    const { rowCount } = await client.query('DELETE FROM releases WHERE id = $1', [release.id]);
    return rowCount === 1;
  });
}
