import type { Job, JobState, Queue } from 'bullmq';
import type { IngestResult, JobProgress } from './kind.ts';

export interface JobSnapshot {
  state: JobState | 'unknown';
  progress: JobProgress | null;
  attemptsMade: number;
  /** The last attempt's error; set while a retry waits (state delayed) and once failed. */
  failedReason: string | null;
}

export type JobOutcome = { ok: true; result: IngestResult } | { ok: false; reason: string };

/** Told once when the job has waited `afterMs` and no worker is connected to its queue. */
export interface NoWorkerWatch {
  afterMs: number;
  notify(): void;
}

export function progressOf(job: Job): JobProgress | null {
  const p = job.progress as Partial<JobProgress> | number | undefined;
  if (p && typeof p === 'object' && typeof p.fraction === 'number') return { fraction: p.fraction, message: p.message ?? '' };
  return null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls the job until it completes or fails for good (after its last attempt, or at once for
 * unrecoverable input). `onChange` sees every change of state, progress or failure reason.
 */
export async function waitForJob(queue: Queue, jobId: string, onChange: (s: JobSnapshot) => void, pollMs = 300, noWorker?: NoWorkerWatch): Promise<JobOutcome> {
  let last = '';
  const started = Date.now();
  let workerChecked = false;
  for (;;) {
    // State first, then the job: a job read before it finished would lack its result.
    const state = await queue.getJobState(jobId);
    const job = await queue.getJob(jobId);
    if (!job || state === 'unknown') return { ok: false, reason: `job ${jobId} no longer exists (removed while waiting)` };
    const snapshot: JobSnapshot = { state, progress: progressOf(job), attemptsMade: job.attemptsMade, failedReason: job.failedReason || null };
    const key = JSON.stringify(snapshot);
    if (key !== last) {
      last = key;
      onChange(snapshot);
    }
    if (state === 'completed') return { ok: true, result: job.returnvalue as IngestResult };
    if (state === 'failed') return { ok: false, reason: job.failedReason || 'failed without a reason' };
    // A worker holds a named connection to its queue while it runs (BullMQ's getWorkers).
    if (noWorker && !workerChecked && state === 'waiting' && Date.now() - started >= noWorker.afterMs) {
      workerChecked = true;
      if ((await queue.getWorkersCount()) === 0) noWorker.notify();
    }
    await sleep(pollMs);
  }
}
