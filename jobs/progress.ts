import type { Job } from 'bullmq';
import type { JobProgress } from './kind.ts';

export interface ProgressReporter {
  report(progress: JobProgress): void;
  /** Waits for the last update to reach Redis. */
  flush(): Promise<void>;
}

/** A progress fraction as people read it: 0.237 → "23%". */
export function percent(fraction: number): string {
  return `${Math.floor(fraction * 100)}%`;
}

/** Smallest fraction change worth a Redis write; message changes are always written. */
const STEP = 0.01;

/**
 * Forwards a kind's progress to `job.updateProgress`, never backwards, coalescing bursts
 * (a build may report thousands of times) into one write in flight at a time.
 */
export function createProgressReporter(job: Pick<Job, 'updateProgress'>, onMilestone: (progress: JobProgress) => void): ProgressReporter {
  let sent: JobProgress = { fraction: 0, message: '' };
  let pending: JobProgress | null = null;
  let chain: Promise<void> = Promise.resolve();

  const drain = async () => {
    while (pending) {
      const next = pending;
      pending = null;
      // Progress is best effort: a lost lock or a closing connection must not fail the build.
      await job.updateProgress({ ...next }).catch(() => {});
    }
  };

  return {
    report({ fraction, message }) {
      const clamped = Math.min(1, Math.max(sent.fraction, Number.isFinite(fraction) ? fraction : 0));
      const text = message || sent.message;
      if (text === sent.message && clamped - sent.fraction < STEP && !(clamped === 1 && sent.fraction < 1)) return;
      if (text !== sent.message) onMilestone({ fraction: clamped, message: text });
      sent = { fraction: clamped, message: text };
      const idle = pending === null;
      pending = sent;
      if (idle) chain = chain.then(drain);
    },
    flush() {
      return chain;
    },
  };
}
