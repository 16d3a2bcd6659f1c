import path from 'node:path';
import type { Pool } from 'pg';
import type { Manifest } from '../schemas/manifest.ts';
import type { ReleaseBucket } from './object-store/s3-client.ts';
import { changedFiles, filesFingerprint } from './reader-files.ts';
import { ChannelListener } from './reader-listener.ts';
import { silentLog, type ReaderLog } from './reader-log.ts';
import { fullVerify, Reverifier, type FullVerify, type ReverifyOutcome } from './reader-reverify.ts';
import { ReleaseSync, type SyncCounters } from './reader-sync.ts';
import type { KindOpener, KindSlot, KindStatus, OpenRelease, VerifiedCopy, VerifyStatus } from './reader-types.ts';
import { getEnabledRelease, RELEASE_ENABLED_CHANNEL, type RegisteredRelease } from './registry.ts';
import { ReleaseUnavailableError } from './unavailable.ts';

export type { ReaderLog } from './reader-log.ts';
export type { FullVerify } from './reader-reverify.ts';
export type { KindOpener, KindStatus, VerifyStatus } from './reader-types.ts';
export type { SyncCounters, SyncStatus } from './reader-sync.ts';

/** First wait before opening a verified release again after its open failed; doubles, capped by the poll. */
const FIRST_OPEN_RETRY_MS = 1000;
/** The status reason of a kind with no enabled release (the API tells it from a release that fails to open). */
export const NO_RELEASE_ENABLED = 'no release is enabled';

/**
 * Serves the enabled release of every registered kind. Learns of enables by LISTEN/NOTIFY (and
 * a poll as safety net), verifies checksums before opening, swaps atomically and closes the old
 * release once the `use` calls still running on it are done; every `reverifyMs` it re-hashes what
 * it serves (reader-reverify.ts). A kind whose enabled release is unset, missing or broken is
 * unavailable (503) without affecting the other kinds.
 */
export class ReleaseStore {
  private readonly slots = new Map<string, KindSlot>();
  private readonly unclosed = new Set<OpenRelease>();
  private readonly log: ReaderLog;
  private readonly reverifier: Reverifier<OpenRelease>;
  /** With RELEASE_STORE: fetches enabled releases into RELEASES_DIR (then a cache). */
  private readonly sync: ReleaseSync | null;
  private listener: ChannelListener | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly deps: {
      pool: Pool;
      databaseUrl: string;
      releasesDir: string;
      pollMs: number;
      /** Background full re-verify of every served release this often; 0 or absent = off. */
      reverifyMs?: number;
      log?: ReaderLog;
      /** RELEASE_STORE: enabled releases are downloaded from there into RELEASES_DIR/<kind>/<id>. */
      store?: ReleaseBucket | null;
      /** With a store, how long start() waits for the first download of each enabled release. */
      syncWaitMs?: number;
    },
  ) {
    this.log = deps.log ?? silentLog;
    this.sync = deps.store ? new ReleaseSync({ bucket: deps.store, releasesDir: deps.releasesDir, log: this.log }) : null;
    this.reverifier = new Reverifier<OpenRelease>({
      intervalMs: deps.reverifyMs ?? 0,
      kinds: () => [...this.slots.keys()],
      current: (kind) => this.slots.get(kind)?.current ?? null,
      settle: (release, outcome) => this.settleReverify(release, outcome),
      log: this.log,
    });
  }

  register<R>(opener: KindOpener<R>): void {
    if (this.slots.has(opener.kind)) throw new Error(`release kind ${opener.kind} is registered twice`);
    this.slots.set(opener.kind, {
      opener: opener as KindOpener<unknown>,
      current: null,
      reason: 'not loaded yet',
      rejected: null,
      unopened: null,
      retryTimer: null,
      lastVerify: null,
      queue: Promise.resolve(),
    });
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.listener = new ChannelListener({
      databaseUrl: this.deps.databaseUrl,
      channel: RELEASE_ENABLED_CHANNEL,
      log: this.log,
      onNotification: (payload) => this.onNotification(payload),
      onReconnect: () => void this.refreshAll(),
    });
    // Listen first, then load: an enable between the two is then never missed.
    await this.listener.start();
    await this.sync?.start();
    await this.firstLoad();
    this.schedulePoll();
    this.reverifier.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.sync?.stop();
    if (this.pollTimer) clearTimeout(this.pollTimer);
    for (const slot of this.slots.values()) this.cancelRetry(slot);
    await this.reverifier.stop();
    await this.listener?.stop();
    await Promise.all([...this.slots.values()].map((slot) => slot.queue));
    for (const slot of this.slots.values()) this.withdraw(slot, 'stopped');
    await Promise.all([...this.unclosed].map((release) => release.closed));
  }

  async use<R, T>(kind: string, fn: (resource: R, release: { id: string; manifest: Manifest }) => Promise<T>): Promise<T> {
    const release = this.slots.get(kind)?.current;
    if (!release) throw new ReleaseUnavailableError(kind);
    release.refs += 1;
    try {
      return await fn(release.resource as R, { id: release.id, manifest: release.manifest });
    } finally {
      release.refs -= 1;
      this.closeIfIdle(release);
    }
  }

  status(): Record<string, KindStatus> {
    const out: Record<string, KindStatus> = {};
    for (const [kind, slot] of this.slots) {
      out[kind] = slot.current
        ? { id: slot.current.id, state: 'ready' }
        : { id: null, state: 'unavailable', reason: slot.reason };
      if (this.sync) out[kind].sync = this.sync.status(kind);
    }
    return out;
  }

  /** With a store: downloads, failed downloads and bytes per kind since start (for /metrics); null without. */
  syncCounters(): Record<string, SyncCounters> | null {
    return this.sync?.counters() ?? null;
  }

  verification(): VerifyStatus {
    const kinds: Record<string, FullVerify | null> = {};
    for (const [kind, slot] of this.slots) kinds[kind] = slot.lastVerify;
    return { intervalSeconds: (this.deps.reverifyMs ?? 0) / 1000, kinds };
  }

  /** Runs the background full re-verify of every served release now and applies its results. */
  reverifyNow(): Promise<void> {
    return this.reverifier.runNow();
  }

  /** Re-reads every kind's enabled release now (also what the poll and a reconnect do). */
  refreshAll(): Promise<void> {
    return Promise.all([...this.slots.keys()].map((kind) => this.refresh(kind))).then(async () => {
      if (!this.sync || this.stopped) return;
      const inUse = new Set([...this.slots.values()].flatMap((slot) => (slot.current ? [slot.current.id] : [])));
      for (const release of this.unclosed) inUse.add(release.id);
      await this.sync.pruneCache(this.deps.pool, [...this.slots.keys()], inUse).catch((err: unknown) => this.log.warn({ err }, 'pruning the release cache failed'));
    });
  }

  /**
   * The first load. With a store it waits at most syncWaitMs for the downloads: a kind still
   * downloading then stays unavailable (with the reason) until its download is done.
   */
  private async firstLoad(): Promise<void> {
    const loaded = this.refreshAll();
    if (!this.sync) return loaded;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.deps.syncWaitMs ?? 600_000)));
    const outcome = await Promise.race([loaded, waited]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.log.warn({ status: this.status() }, 'enabled releases not all downloaded yet; serving the others meanwhile');
  }

  /**
   * `recheck`: verify the enabled release again even if its unchanged files were rejected before
   * (an enable or rollback has just verified them; a repair may have kept size, mtime and inode).
   */
  refresh(kind: string, options: { recheck?: boolean } = {}): Promise<void> {
    const slot = this.slots.get(kind);
    if (!slot || this.stopped) return Promise.resolve();
    slot.queue = slot.queue
      .then(() => {
        if (options.recheck) slot.rejected = null;
        return this.reload(kind, slot, options.recheck === true);
      })
      .catch((err: unknown) => {
        if (!this.stopped) this.log.error({ kind, err }, 'release reload failed'); // on stop: an aborted download
      });
    return slot.queue;
  }

  private onNotification(payload: string | undefined): void {
    let kind: unknown;
    try {
      kind = (JSON.parse(payload ?? '') as { kind?: unknown }).kind;
    } catch {
      kind = undefined;
    }
    // Only enable and rollback notify, and both verify the release before they commit.
    if (typeof kind === 'string') void this.refresh(kind, { recheck: true });
    else void this.refreshAll();
  }

  /** Applies a background re-verify in the kind's queue, so it cannot interleave with a reload or swap. */
  private settleReverify(release: OpenRelease, outcome: ReverifyOutcome): Promise<void> {
    const slot = this.slots.get(release.kind);
    if (!slot) return Promise.resolve();
    slot.queue = slot.queue.then(() => {
      if (slot.current !== release) return; // swapped or withdrawn while it was hashed: the result is stale
      slot.lastVerify = outcome.verify;
      if (outcome.verify.result === 'ok') return;
      // As a failed verification at open: not hashed again until its files change or it is enabled again.
      slot.rejected = { id: release.id, fingerprint: outcome.fingerprint };
      slot.unopened = null;
      const reason = `release ${release.id} fails verification (background re-verify): ${(outcome.verify.problems ?? []).join('; ')}`;
      this.log.error({ kind: release.kind, id: release.id }, reason);
      this.withdraw(slot, reason);
    });
    return slot.queue;
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.pollTimer = setTimeout(() => {
      void this.refreshAll().finally(() => this.schedulePoll());
    }, this.deps.pollMs);
    this.pollTimer.unref();
  }

  private async reload(kind: string, slot: KindSlot, recheck = false): Promise<void> {
    if (this.stopped) return;
    let enabled: RegisteredRelease | null;
    try {
      enabled = await getEnabledRelease(this.deps.pool, kind);
    } catch (err) {
      // A control-plane hiccup is no reason to stop serving what is open.
      this.log.warn({ kind, err }, 'could not read the enabled release; keeping the current one');
      return;
    }
    if (!enabled) {
      if (slot.current || slot.reason !== NO_RELEASE_ENABLED) this.log.warn({ kind }, NO_RELEASE_ENABLED);
      this.withdraw(slot, NO_RELEASE_ENABLED);
      return;
    }
    const current = slot.current;
    if (current?.id === enabled.id) {
      const now = await filesFingerprint(current.dir, current.manifest);
      if (now === current.fingerprint) return;
      const reason = `files of release ${current.id} changed on disk (${changedFiles(current.fingerprint, now).join(', ')}); re-verifying`;
      this.log.error({ kind, id: current.id }, reason);
      this.withdraw(slot, reason);
      // Re-verify now rather than at the next poll: files that still match are served again at once.
    }
    await this.openEnabled(kind, slot, enabled, recheck);
  }

  private async openEnabled(kind: string, slot: KindSlot, enabled: RegisteredRelease, recheck: boolean): Promise<void> {
    this.cancelRetry(slot);
    if (this.sync) {
      const synced = await this.syncedCopy(kind, slot, enabled, recheck);
      if (synced) await this.openVerified(kind, slot, enabled, synced);
      return;
    }
    const dir = path.resolve(this.deps.releasesDir, enabled.path);
    // Fingerprint before verifying: a change made during or after verification shows up later.
    const fingerprint = await filesFingerprint(dir, enabled.manifest);
    const same = (entry: { id: string; fingerprint: string } | null) => entry?.id === enabled.id && entry.fingerprint === fingerprint;
    if (same(slot.rejected)) return;
    const unopened = same(slot.unopened) ? slot.unopened : null;
    let manifest: Manifest;
    if (unopened) {
      manifest = unopened.manifest; // these very files verified; only opening them failed
    } else {
      const { check, verify } = await fullVerify(dir, { id: enabled.id, manifest: enabled.manifest }, 'open');
      slot.lastVerify = verify;
      if (!check.ok || !check.manifest) {
        slot.rejected = { id: enabled.id, fingerprint };
        slot.unopened = null;
        const reason = `release ${enabled.id} fails verification: ${check.problems.join('; ')}`;
        this.log.error({ kind, id: enabled.id }, reason);
        this.withdraw(slot, reason);
        return;
      }
      manifest = check.manifest;
    }
    await this.openVerified(kind, slot, enabled, { dir, fingerprint, manifest, unopened });
  }

  /**
   * With a store: this node's copy in RELEASES_DIR/<kind>/<id>, verified, downloaded first if it is
   * missing or fails. A failed download keeps what is served, says why, and is retried with backoff.
   */
  private async syncedCopy(kind: string, slot: KindSlot, enabled: RegisteredRelease, recheck: boolean): Promise<VerifiedCopy | null> {
    const sync = this.sync!;
    const dir = sync.dirOf(enabled);
    const fingerprint = await filesFingerprint(dir, enabled.manifest);
    const unopened = slot.unopened;
    if (unopened?.id === enabled.id && unopened.fingerprint === fingerprint) return { dir, fingerprint, manifest: unopened.manifest, unopened };
    const outcome = await sync.ensure(kind, enabled, recheck, (reason) => {
      if (!slot.current) slot.reason = reason;
    });
    if (!outcome.ok) {
      const serving = slot.current ? `; still serving ${slot.current.id}` : '';
      this.log.error({ kind, id: enabled.id }, `release ${enabled.id} not synced: ${outcome.reason}${serving}; retrying in ${outcome.retryMs} ms`);
      if (!slot.current) slot.reason = `release ${enabled.id} is not synced from the release store: ${outcome.reason}; retrying in ${outcome.retryMs} ms`;
      this.scheduleRetry(kind, slot, outcome.retryMs);
      return null;
    }
    slot.lastVerify = outcome.verify;
    slot.rejected = null;
    return { dir, fingerprint: outcome.fingerprint, manifest: outcome.manifest, unopened: null };
  }

  /** Opens a verified release and swaps it in; an open that fails is retried with backoff. */
  private async openVerified(kind: string, slot: KindSlot, enabled: RegisteredRelease, copy: VerifiedCopy): Promise<void> {
    const { dir, fingerprint, manifest, unopened } = copy;
    const fail = (reason: string) => {
      this.log.error({ kind, id: enabled.id }, reason);
      this.withdraw(slot, reason);
    };
    let resource: unknown;
    try {
      resource = await slot.opener.open(dir, manifest);
    } catch (err) {
      // Opening can fail for passing reasons: try again soon, unlike a verification failure.
      const attempts = (unopened?.attempts ?? 0) + 1;
      const retryMs = Math.min(FIRST_OPEN_RETRY_MS * 2 ** (attempts - 1), this.deps.pollMs);
      slot.unopened = { id: enabled.id, fingerprint, manifest, attempts };
      slot.rejected = null;
      fail(`release ${enabled.id} could not be opened: ${(err as Error).message}; retrying in ${retryMs} ms`);
      this.scheduleRetry(kind, slot, retryMs);
      return;
    }
    let markClosed = () => {};
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const opened: OpenRelease = {
      kind, id: enabled.id, manifest, dir, resource, fingerprint,
      refs: 0, retired: false, closing: false, closed, markClosed,
    };
    this.unclosed.add(opened);
    if (this.stopped) {
      this.retire(opened);
      return;
    }
    const previous = slot.current;
    slot.current = opened;
    slot.rejected = null;
    slot.unopened = null;
    slot.reason = '';
    if (previous) this.retire(previous);
    this.log.info({ kind, id: opened.id, previous: previous?.id ?? null }, 'serving release');
  }

  private scheduleRetry(kind: string, slot: KindSlot, delayMs: number): void {
    if (this.stopped) return;
    slot.retryTimer = setTimeout(() => {
      slot.retryTimer = null;
      void this.refresh(kind);
    }, delayMs);
    slot.retryTimer.unref();
  }

  private cancelRetry(slot: KindSlot): void {
    if (slot.retryTimer) clearTimeout(slot.retryTimer);
    slot.retryTimer = null;
  }

  /** Makes the kind unavailable; its open release closes once in-flight uses finish. */
  private withdraw(slot: KindSlot, reason: string): void {
    slot.reason = reason;
    const current = slot.current;
    slot.current = null;
    if (current) this.retire(current);
  }

  private retire(release: OpenRelease): void {
    release.retired = true;
    this.closeIfIdle(release);
  }

  /** Closes a retired release once no `use` holds it (the last `use` to finish calls this too). */
  private closeIfIdle(release: OpenRelease): void {
    if (!release.retired || release.refs > 0 || release.closing) return;
    release.closing = true;
    const opener = this.slots.get(release.kind)!.opener;
    opener.close(release.resource)
      .catch((err: unknown) => this.log.error({ kind: release.kind, id: release.id, err }, 'closing a release failed'))
      .finally(() => {
        this.unclosed.delete(release);
        release.markClosed();
      });
  }
}
