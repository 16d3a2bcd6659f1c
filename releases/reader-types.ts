import type { Manifest } from '../schemas/manifest.ts';
import type { FullVerify } from './reader-reverify.ts';
import type { SyncStatus } from './reader-sync.ts';

/** How the API opens one kind of release (e.g. its DuckDB files READ_ONLY) and closes it again. */
export interface KindOpener<R> {
  kind: string;
  open(dir: string, manifest: Manifest): Promise<R>;
  close(resource: R): Promise<void>;
}

export interface KindStatus {
  id: string | null;
  state: 'ready' | 'unavailable';
  reason?: string;
  /** With RELEASE_STORE: how the enabled release reached this node (a failed download shows here). */
  sync?: SyncStatus;
}

/** The background re-verify setting and each kind's last full verification (for /healthz). */
export interface VerifyStatus {
  /** Seconds between background passes; 0 = off. */
  intervalSeconds: number;
  kinds: Record<string, FullVerify | null>;
}

export interface OpenRelease {
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

export interface KindSlot {
  opener: KindOpener<unknown>;
  current: OpenRelease | null;
  reason: string;
  /**
   * The enabled release that failed verification (at open or in the background), and its files
   * then: not re-verified until they change or an enable or rollback of the kind is notified.
   */
  rejected: { id: string; fingerprint: string } | null;
  /**
   * The enabled release that verified but could not be opened (EMFILE, out of memory, a lock), and
   * its files then: the open is retried with backoff, without re-hashing while they are unchanged.
   */
  unopened: { id: string; fingerprint: string; manifest: Manifest; attempts: number } | null;
  retryTimer: NodeJS.Timeout | null;
  /** Shown by /healthz. */
  lastVerify: FullVerify | null;
  /** Reloads of one kind run one after another. */
  queue: Promise<void>;
}

/** Release files verified against the registered manifest, ready to open. */
export interface VerifiedCopy {
  dir: string;
  fingerprint: string;
  manifest: Manifest;
  /** Set when these very files verified before and only opening them failed. */
  unopened: KindSlot['unopened'];
}
