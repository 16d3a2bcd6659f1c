import path from 'node:path';
import type { Pool } from 'pg';
import { errors } from '../api/errors.ts';
import type { Manifest } from '../schemas/manifest.ts';
import { changedFiles, filesFingerprint } from './reader-files.ts';
import { ChannelListener } from './reader-listener.ts';
import { getEnabledRelease, RELEASE_ENABLED_CHANNEL, type RegisteredRelease } from './registry.ts';
import { verifyReleaseDir } from './verify.ts';

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
  /** The enabled release that failed to verify or open, and its files then: not retried until they change. */
  failed: { id: string; fingerprint: string } | null;
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
      failed: null,
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
    await this.listener?.stop();
    await Promise.all([...this.slots.values()].map((slot) => slot.queue));
    for (const slot of this.slots.values()) this.withdraw(slot, 'stopped');
    await Promise.all([...this.unclosed].map((release) => release.closed));
  }

  async use<R, T>(kind: string, fn: (resource: R, release: { id: string; manifest: Manifest }) => Promise<T>): Promise<T> {
    const release = this.slots.get(kind)?.current;
    if (!release) throw errors.releaseUnavailable(kind);
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
      return;
    }
    await this.openEnabled(kind, slot, enabled);
  }

  private async openEnabled(kind: string, slot: KindSlot, enabled: RegisteredRelease): Promise<void> {
    const dir = path.resolve(this.deps.releasesDir, enabled.path);
    // Fingerprint before verifying: a change made during or after verification shows up later.
    const fingerprint = await filesFingerprint(dir, enabled.manifest);
    if (slot.failed?.id === enabled.id && slot.failed.fingerprint === fingerprint) return;
    const fail = (reason: string) => {
      slot.failed = { id: enabled.id, fingerprint };
      this.log.error({ kind, id: enabled.id }, reason);
      this.withdraw(slot, reason);
    };
    const check = await verifyReleaseDir(dir, { expectedId: enabled.id });
    if (check.ok && check.manifest && check.manifest.content_hash !== enabled.contentHash) {
      check.problems.push('manifest.json on disk is not the registered manifest');
    }
    if (!check.ok || !check.manifest || check.problems.length) {
      fail(`release ${enabled.id} fails verification: ${check.problems.join('; ')}`);
      return;
    }
    let resource: unknown;
    try {
      resource = await slot.opener.open(dir, check.manifest);
    } catch (err) {
      fail(`release ${enabled.id} could not be opened: ${(err as Error).message}`);
      return;
    }
    let markClosed = () => {};
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const opened: OpenRelease = {
      kind, id: enabled.id, manifest: check.manifest, dir, resource, fingerprint,
      refs: 0, retired: false, closing: false, closed, markClosed,
    };
    this.unclosed.add(opened);
    if (this.stopped) {
      this.retire(opened);
      return;
    }
    const previous = slot.current;
    slot.current = opened;
    slot.failed = null;
    slot.reason = '';
    if (previous) this.retire(previous);
    this.log.info({ kind, id: opened.id, previous: previous?.id ?? null }, 'serving release');
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
