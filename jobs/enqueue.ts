import type { JobState, Queue } from 'bullmq';
import type { Config } from '../lib/config.ts';
import { jobIdFor } from './job-id.ts';
import type { IngestKind, IngestPayload } from './kind.ts';
import { payloadProblem } from './payload.ts';
import { ingestJobOptions } from './queues.ts';

export interface Enqueued {
  jobId: string;
  state: JobState | 'unknown';
  /** false: a job for the same source was already waiting, delayed or running; that job is returned. */
  created: boolean;
}

export class InvalidPayloadError extends Error {}

const FINISHED = new Set(['completed', 'failed']);

/**
 * Adds an ingest job whose id is derived from the source, so the same source is queued once.
 * A finished job with that id is removed first: ingesting a source again must run again.
 */
export async function enqueueIngest<P extends IngestPayload>(config: Config, queue: Queue, kind: IngestKind<P>, payload: P): Promise<Enqueued> {
  const problem = payloadProblem(kind.payloadSchema, payload);
  if (problem) throw new InvalidPayloadError(`invalid ${kind.kind} payload: ${problem}`);
  const jobId = jobIdFor(kind.kind, kind.jobKey(payload));
  // A few rounds cover another client finishing, removing or adding the same id in between.
  for (let round = 0; round < 5; round++) {
    const existing = await queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      if (FINISHED.has(state)) {
        await existing.remove().catch(() => {});
        continue;
      }
      if (state !== 'unknown') {
        // Asking to enable a source already queued without --enable upgrades that job.
        if (payload.enable && !(existing.data as P).enable) await existing.updateData({ ...existing.data, enable: true });
        return { jobId, state, created: false };
      }
    }
    const job = await queue.add(kind.kind, payload, ingestJobOptions(config, jobId));
    return { jobId, state: await job.getState(), created: true };
  }
  throw new Error(`could not enqueue ${jobId}: its previous run kept changing state`);
}
