import type { Manifest } from '../schemas/manifest.ts';
import { filesFingerprint } from './reader-files.ts';
import type { ReaderLog } from './reader-log.ts';
import { verifyReleaseDir, type VerifyResult } from './verify.ts';

/** The last full verification of a kind's release: every artifact hashed against the registered manifest. */
export interface FullVerify {
  id: string;
  /** When it finished (ISO 8601). */
  at: string;
  result: 'ok' | 'failed';
  /** `open`: before the release was served; `reverify`: the background pass over a served release. */
  trigger: 'open' | 'reverify';
  durationMs: number;
  problems?: string[];
}

/** What the re-verifier needs of an open release. */
export interface ReverifyTarget {
  kind: string;
  id: string;
  dir: string;
  manifest: Manifest;
}

export interface ReverifyOutcome {
  /** The cheap fingerprint taken before hashing, so a later change of the files is noticed. */
  fingerprint: string;
  verify: FullVerify;
}

/** Hashes a release directory against its registered manifest and id, and says how it went. */
export async function fullVerify(
  dir: string,
  expected: { id: string; manifest: Manifest },
  trigger: FullVerify['trigger'],
  signal?: AbortSignal,
): Promise<{ check: VerifyResult; verify: FullVerify }> {
  const started = Date.now();
  const check = await verifyReleaseDir(dir, { expectedId: expected.id, expectedManifest: expected.manifest, signal });
  const verify: FullVerify = {
    id: expected.id,
    at: new Date().toISOString(),
    result: check.ok ? 'ok' : 'failed',
    trigger,
    durationMs: Date.now() - started,
    ...(check.ok ? {} : { problems: check.problems }),
  };
  return { check, verify };
}

/**
 * Re-hashes the served release of every kind, one release at a time, every `intervalMs` after the
 * previous pass ended: the cheap size/mtime/inode check cannot see bytes changed in place with
 * the mtime put back. Files are streamed through the hash, so requests keep being answered.
 */
export class Reverifier<T extends ReverifyTarget> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private abort = new AbortController();
  private stopped = false;

  constructor(
    private readonly deps: {
      /** 0 = no scheduled passes (`runNow` still works). */
      intervalMs: number;
      kinds(): string[];
      /** The release a kind serves now, or null. */
      current(kind: string): T | null;
      /** Applies a result; the release may no longer be served by then. */
      settle(target: T, outcome: ReverifyOutcome): Promise<void>;
      log: ReaderLog;
    },
  ) {}

  start(): void {
    this.stopped = false;
    this.abort = new AbortController();
    this.schedule();
  }

  /** Cancels the next pass and aborts the running one (its result is dropped). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.running;
  }

  /** Runs a pass now; a pass already running is joined, not doubled. */
  runNow(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private schedule(): void {
    if (this.stopped || this.deps.intervalMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runNow().finally(() => this.schedule());
    }, this.deps.intervalMs);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    const signal = this.abort.signal;
    for (const kind of this.deps.kinds()) {
      if (signal.aborted) return;
      const target = this.deps.current(kind);
      if (!target) continue;
      let outcome: ReverifyOutcome;
      try {
        const fingerprint = await filesFingerprint(target.dir, target.manifest);
        const { verify } = await fullVerify(target.dir, target, 'reverify', signal);
        outcome = { fingerprint, verify };
      } catch (err) {
        if (!signal.aborted) this.deps.log.error({ kind, id: target.id, err }, 'background re-verify could not run');
        continue;
      }
      if (outcome.verify.result === 'ok') {
        this.deps.log.info({ kind, id: target.id, durationMs: outcome.verify.durationMs }, 'release re-verified');
      }
      await this.deps.settle(target, outcome);
    }
  }
}
