import { isDeepStrictEqual } from 'node:util';
import type { Job, JobState, Queue } from 'bullmq';
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
/** Removals and adds tried before giving up: covers another client finishing, removing or adding the same id in between. */
const MAX_ROUNDS = 5;

/**
 * Whether the stored job is the one this client's `queue.add` created, not a concurrent add of the
 * same id. (A concurrent add in the same millisecond with an equal payload passes too: it is the
 * same request.)
 */
function isOurs(stored: Job, added: Job, payload: IngestPayload): boolean {
  return stored.timestamp === added.timestamp && isDeepStrictEqual(stored.data, JSON.parse(JSON.stringify(payload)));
}

/**
 * Adds an ingest job whose id is derived from the source, so the same source is queued once.
 * A finished job with that id is removed first: ingesting a source again must run again.
 */
export async function enqueueIngest<P extends IngestPayload>(config: Config, queue: Queue, kind: IngestKind<P>, payload: P): Promise<Enqueued> {
  const problem = payloadProblem(kind.payloadSchema, payload);
  if (problem) throw new InvalidPayloadError(`invalid ${kind.kind} payload: ${problem}`);
  const jobId = jobIdFor(kind.kind, kind.jobKey(payload));
  let added: Job | null = null;
  for (let round = 0; ; round++) {
    const existing = await queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      if (added && isOurs(existing, added, payload)) return { jobId, state, created: true };
      if (FINISHED.has(state)) {
        if (round >= MAX_ROUNDS) break;
        await existing.remove().catch(() => {});
        continue;
      }
      if (state !== 'unknown') {
        // Asking to enable a source already queued without --enable upgrades that job.
        if (payload.enable && !(existing.data as P).enable) await existing.updateData({ ...existing.data, enable: true });
        return { jobId, state, created: false };
      }
    } else if (added) {
      // Ours, already run and removed by its retention (or by another client re-ingesting it).
      return { jobId, state: 'unknown', created: true };
    }
    if (round >= MAX_ROUNDS) break;
    // With an id that exists, `add` quietly returns a job built from our arguments instead of the
    // stored one: the next round reads the stored job back to tell ours from a concurrent add.
    added = await queue.add(kind.kind, payload, ingestJobOptions(config, jobId));
  }
  throw new Error(`could not enqueue ${jobId}: its previous run kept changing state`);
}
