import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import type { Manifest } from '../schemas/manifest.ts';
import { ReleaseError } from './errors.ts';
import { cachedReleaseDir, downloadRelease } from './object-store/download-release.ts';
import type { ReleaseBucket } from './object-store/s3-client.ts';
import { filesFingerprint } from './reader-files.ts';
import type { ReaderLog } from './reader-log.ts';
import { fullVerify, type FullVerify } from './reader-reverify.ts';
import { getRelease, listReleases, type RegisteredRelease } from './registry.ts';
import { removeDeadStaging } from './staging.ts';

/** First wait before downloading a release again after a failed download; doubles up to the last. */
const FIRST_SYNC_RETRY_MS = 1000;
const LAST_SYNC_RETRY_MS = 60_000;
const RELEASE_ID = /^\d{4}-\d{2}-\d{2}-[0-9a-f]{12}$/;

/** How a kind's enabled release reached this node's RELEASES_DIR from the store (in /healthz). */
export interface SyncStatus {
  /** The release last fetched or being fetched. */
  releaseId: string | null;
  state: 'idle' | 'downloading' | 'synced' | 'failed';
  /** Failed attempts in a row at fetching releaseId. */
  failures: number;
  lastError: string | null;
  lastErrorAt: string | null;
  lastSyncedAt: string | null;
  /** When a failed fetch is tried again. */
  nextRetryAt: string | null;
}

/** Running totals per kind since the process started (for /metrics). */
export interface SyncCounters {
  downloads: number;
  failures: number;
  bytes: number;
}

export type SyncOutcome =
  | { ok: true; manifest: Manifest; fingerprint: string; verify: FullVerify }
  | { ok: false; reason: string; retryMs: number };

const idle = (): SyncStatus => ({ releaseId: null, state: 'idle', failures: 0, lastError: null, lastErrorAt: null, lastSyncedAt: null, nextRetryAt: null });

/**
 * With RELEASE_STORE, each API node's RELEASES_DIR is a cache: an enabled release that is missing
 * there or fails verification is downloaded into staging, verified against the registered
 * manifest and renamed into place; a failed download is retried with backoff. Releases no longer
 * registered are removed from the cache.
 */
export class ReleaseSync {
  private readonly states = new Map<string, SyncStatus>();
  private readonly totals = new Map<string, SyncCounters>();
  private abort = new AbortController();

  constructor(private readonly deps: { bucket: ReleaseBucket; releasesDir: string; log: ReaderLog }) {}

  dirOf(release: { kind: string; id: string }): string {
    return cachedReleaseDir(this.deps.releasesDir, release);
  }

  async start(): Promise<void> {
    this.abort = new AbortController();
    // A download this host's dead process left half done.
    await removeDeadStaging(this.deps.releasesDir);
  }

  /** Aborts downloads and checks in progress (they then throw). */
  stop(): void {
    this.abort.abort();
  }

  status(kind: string): SyncStatus {
    return { ...(this.states.get(kind) ?? idle()) };
  }

  counters(): Record<string, SyncCounters> {
    return Object.fromEntries([...this.totals].map(([kind, c]) => [kind, { ...c }]));
  }

  /**
   * Makes this node's copy of the release whole and verified: verifies what is there, downloads it
   * when it is missing or fails. A failed attempt is not repeated before its backoff is over
   * unless `force` (an enable was notified).
   */
  async ensure(kind: string, release: RegisteredRelease, force: boolean, onDownload: (reason: string) => void): Promise<SyncOutcome> {
    const signal = this.abort.signal;
    let state = this.states.get(kind) ?? idle();
    if (state.releaseId !== release.id) state = { ...idle(), releaseId: release.id };
    this.states.set(kind, state);
    const waitMs = state.nextRetryAt ? Date.parse(state.nextRetryAt) - Date.now() : 0;
    if (state.state === 'failed' && !force && waitMs > 0) return { ok: false, reason: state.lastError ?? 'download failed', retryMs: waitMs };

    const dir = this.dirOf(release);
    if (await stat(path.join(dir, 'manifest.json')).then(() => true, () => false)) {
      const fingerprint = await filesFingerprint(dir, release.manifest);
      const { check, verify } = await fullVerify(dir, release, 'open', signal);
      if (check.ok && check.manifest) return this.synced(state, { ok: true, manifest: check.manifest, fingerprint, verify });
      this.deps.log.warn({ kind, id: release.id, problems: check.problems }, 'cached release fails verification; downloading it again');
    }
    const started = Date.now();
    state.state = 'downloading';
    onDownload(`downloading release ${release.id} from the release store`);
    this.deps.log.info({ kind, id: release.id, store: this.deps.bucket.describe() }, 'downloading release');
    const totals = this.totals.get(kind) ?? { downloads: 0, failures: 0, bytes: 0 };
    this.totals.set(kind, totals);
    try {
      const bytes = await downloadRelease(this.deps.bucket, release, this.deps.releasesDir, dir, signal);
      totals.downloads += 1;
      totals.bytes += bytes;
      const fingerprint = await filesFingerprint(dir, release.manifest);
      const verify: FullVerify = { id: release.id, at: new Date().toISOString(), result: 'ok', trigger: 'open', durationMs: Date.now() - started };
      this.deps.log.info({ kind, id: release.id, bytes, durationMs: verify.durationMs }, 'release downloaded and verified');
      return this.synced(state, { ok: true, manifest: release.manifest, fingerprint, verify });
    } catch (err) {
      if (signal.aborted) throw err;
      totals.failures += 1;
      state.failures += 1;
      const retryMs = Math.min(FIRST_SYNC_RETRY_MS * 2 ** (state.failures - 1), LAST_SYNC_RETRY_MS);
      state.state = 'failed';
      state.lastError = err instanceof ReleaseError ? err.message : `download failed: ${(err as Error).message || (err as Error).name || String(err)}`;
      state.lastErrorAt = new Date().toISOString();
      state.nextRetryAt = new Date(Date.now() + retryMs).toISOString();
      return { ok: false, reason: state.lastError, retryMs };
    }
  }

  private synced(state: SyncStatus, outcome: SyncOutcome): SyncOutcome {
    Object.assign(state, { state: 'synced', failures: 0, nextRetryAt: null, lastSyncedAt: new Date().toISOString() });
    return outcome;
  }

  /** Removes cached releases of these kinds that are no longer registered (pruned), except those `inUse`. */
  async pruneCache(pool: Pool, kinds: string[], inUse: Set<string>): Promise<string[]> {
    let registered: Set<string>;
    try {
      registered = new Set((await listReleases(pool)).map((r) => r.id));
    } catch {
      return []; // the control plane does not answer: remove nothing
    }
    const removed: string[] = [];
    for (const kind of kinds) {
      const kindDir = path.join(this.deps.releasesDir, kind);
      const entries = await readdir(kindDir).catch(() => [] as string[]);
      for (const id of entries) {
        if (!RELEASE_ID.test(id) || registered.has(id) || inUse.has(id)) continue;
        // Registered since the listing (and downloaded meanwhile): keep it.
        if (await getRelease(pool, id).catch(() => true)) continue;
        await rm(path.join(kindDir, id), { recursive: true, force: true });
        removed.push(`${kind}/${id}`);
      }
    }
    if (removed.length) this.deps.log.info({ removed }, 'removed cached releases that are no longer registered');
    return removed;
  }
}
