import path from 'node:path';
import type { Pool } from 'pg';
import type { Manifest } from '../schemas/manifest.ts';
import { changedFiles, filesFingerprint } from './reader-files.ts';
import { ChannelListener } from './reader-listener.ts';
import { getEnabledRelease, RELEASE_ENABLED_CHANNEL, type RegisteredRelease } from './registry.ts';
import { ReleaseUnavailableError } from './unavailable.ts';
import { verifyReleaseDir } from './verify.ts';

/** First wait before opening a verified release again after its open failed; doubles, capped by the poll. */
const FIRST_OPEN_RETRY_MS = 1000;

/** How the API opens one kind of release (e.g. its DuckDB files READ_ONLY) and closes it again. */
export interface KindOpener<R> {
  kind: string;
  open(dir: string, manifest: Manifest): Promise<R>;
  close(resource: R): Promise<void>;
}

export interface ReaderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface KindStatus {
  id: string | null;
  state: 'ready' | 'unavailable';
  reason?: string;
}

interface OpenRelease {
  kind: string;
  id: string;
  manifest: Manifest;
  dir: string;
  resource: unknown;
  fingerprint: string;
  /** `use` calls running on it; a retired release is closed when this reaches 0. */
  refs: number;
  retired: boolean;
  closing: boolean;
  closed: Promise<void>;
  markClosed(): void;
}

interface KindSlot {
  opener: KindOpener<unknown>;
  current: OpenRelease | null;
  reason: string;
  /** The enabled release that failed verification, and its files then: not re-verified until they change. */
  rejected: { id: string; fingerprint: string } | null;
  /**
   * The enabled release that verified but could not be opened (EMFILE, out of memory, a lock), and
   * its files then: the open is retried with backoff, without re-hashing while they are unchanged.
   */
  unopened: { id: string; fingerprint: string; manifest: Manifest; attempts: number } | null;
  retryTimer: NodeJS.Timeout | null;
  /** Reloads of one kind run one after another. */
  queue: Promise<void>;
}

const silentLog: ReaderLog = { info() {}, warn() {}, error() {} };

/**
 * Serves the enabled release of every registered kind. Learns of enables by LISTEN/NOTIFY (and
 * a poll as safety net), verifies checksums before opening, swaps atomically and closes the old
 * release once the `use` calls still running on it are done. A kind whose enabled release is
 * unset, missing or broken is unavailable (503) without affecting the other kinds.
 */
export class ReleaseStore {
  private readonly slots = new Map<string, KindSlot>();
  private readonly unclosed = new Set<OpenRelease>();
  private readonly log: ReaderLog;
  private listener: ChannelListener | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: { pool: Pool; databaseUrl: string; releasesDir: string; pollMs: number; log?: ReaderLog }) {
    this.log = deps.log ?? silentLog;
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
    await this.refreshAll();
    this.schedulePoll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    for (const slot of this.slots.values()) this.cancelRetry(slot);
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
    }
    return out;
  }

  /** Re-reads every kind's enabled release now (also what the poll and a reconnect do). */
  refreshAll(): Promise<void> {
    return Promise.all([...this.slots.keys()].map((kind) => this.refresh(kind))).then(() => {});
  }

  refresh(kind: string): Promise<void> {
    const slot = this.slots.get(kind);
    if (!slot || this.stopped) return Promise.resolve();
    slot.queue = slot.queue.then(() => this.reload(kind, slot)).catch((err: unknown) => {
      this.log.error({ kind, err }, 'release reload failed');
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
    if (typeof kind === 'string') void this.refresh(kind);
    else void this.refreshAll();
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.pollTimer = setTimeout(() => {
      void this.refreshAll().finally(() => this.schedulePoll());
    }, this.deps.pollMs);
    this.pollTimer.unref();
  }

  private async reload(kind: string, slot: KindSlot): Promise<void> {
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
      if (slot.current || slot.reason !== 'no release is enabled') this.log.warn({ kind }, 'no release is enabled');
      this.withdraw(slot, 'no release is enabled');
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
    await this.openEnabled(kind, slot, enabled);
  }

  private async openEnabled(kind: string, slot: KindSlot, enabled: RegisteredRelease): Promise<void> {
    this.cancelRetry(slot);
    const dir = path.resolve(this.deps.releasesDir, enabled.path);
    // Fingerprint before verifying: a change made during or after verification shows up later.
    const fingerprint = await filesFingerprint(dir, enabled.manifest);
    const same = (entry: { id: string; fingerprint: string } | null) => entry?.id === enabled.id && entry.fingerprint === fingerprint;
    if (same(slot.rejected)) return;
    const fail = (reason: string) => {
      this.log.error({ kind, id: enabled.id }, reason);
      this.withdraw(slot, reason);
    };
    const unopened = same(slot.unopened) ? slot.unopened : null;
    let manifest: Manifest;
    if (unopened) {
      manifest = unopened.manifest; // these very files verified; only opening them failed
    } else {
      const check = await verifyReleaseDir(dir, { expectedId: enabled.id, expectedManifest: enabled.manifest });
      if (!check.ok || !check.manifest) {
        slot.rejected = { id: enabled.id, fingerprint };
        slot.unopened = null;
        fail(`release ${enabled.id} fails verification: ${check.problems.join('; ')}`);
        return;
      }
      manifest = check.manifest;
    }
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
