import type { Job, JobType, Queue } from 'bullmq';
import type { IngestResult, JobProgress } from './kind.ts';
import { progressOf } from './watch.ts';

export interface JobSummary {
  id: string;
  kind: string;
  state: string;
  progress: JobProgress | null;
  attemptsStarted: number;
  attemptsMade: number;
  maxAttempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  release: string | null;
  reused: boolean | null;
  failedReason: string | null;
}

// Listed per type so each job's state comes with it (no extra round trip per job).
const TYPES: JobType[] = ['active', 'waiting', 'prioritized', 'waiting-children', 'paused', 'delayed', 'completed', 'failed'];

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null);

function summarize(kind: string, state: string, job: Job): JobSummary {
  const result = state === 'completed' ? (job.returnvalue as IngestResult | null) : null;
  return {
    id: job.id!,
    kind,
    state,
    progress: progressOf(job),
    attemptsStarted: job.attemptsStarted,
    attemptsMade: job.attemptsMade,
    maxAttempts: job.opts.attempts ?? 1,
    createdAt: iso(job.timestamp)!,
    startedAt: iso(job.processedOn),
    finishedAt: iso(job.finishedOn),
    release: result?.release ?? null,
    reused: result ? result.reused : null,
    failedReason: job.failedReason || null,
  };
}

/** The most recent jobs of the given queues (all states), newest first. */
export async function listJobs(queues: Map<string, Queue>, limit: number): Promise<JobSummary[]> {
  const byId = new Map<string, JobSummary>();
  for (const [kind, queue] of queues) {
    for (const type of TYPES) {
      const jobs = await queue.getJobs([type], 0, limit - 1, false);
      // A job moving on between two reads shows up twice; keep the first sighting.
      for (const job of jobs) if (job && !byId.has(job.id!)) byId.set(job.id!, summarize(kind, type === 'paused' ? 'waiting' : type, job));
    }
  }
  return [...byId.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1)).slice(0, limit);
}
