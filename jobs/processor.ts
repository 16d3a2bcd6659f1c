import { rm } from 'node:fs/promises';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Pool } from 'pg';
import { InvalidInputError } from '../ingest/errors.ts';
import type { Config } from '../lib/config.ts';
import { openReleaseBucket } from '../releases/object-store/open-bucket.ts';
import type { ReleaseBucket } from '../releases/object-store/s3-client.ts';
import { publishRelease } from '../releases/publish.ts';
import { enableRelease } from '../releases/registry.ts';
import { ShrinkRefusedError } from '../releases/shrink.ts';
import { makeStagingDir } from '../releases/staging.ts';
import type { IngestKind, IngestPayload, IngestResult } from './kind.ts';
import type { JobLog } from './log.ts';
import { payloadProblem } from './payload.ts';
import { createProgressReporter, percent } from './progress.ts';

export interface ProcessorDeps {
  config: Config;
  pool: Pool;
  log: JobLog;
  /** The payload as stored now: `canmap ingest --enable` may switch `enable` on while the job runs. */
  currentPayload(jobId: string): Promise<unknown>;
}


/**
 * Enables the release; a refusal because its counts fell is the job's outcome, not its failure
 * (retrying would build the same release): logged, and returned as the reason.
 */
async function enableUnlessShrunk(deps: ProcessorDeps, store: ReleaseBucket | null, releaseId: string, jobId: string): Promise<string | undefined> {
  try {
    await enableRelease(deps.pool, releaseId, `job:${jobId}`, { store });
    return undefined;
  } catch (err) {
    if (!(err instanceof ShrinkRefusedError)) throw err;
    deps.log('warn', `job ${jobId}: ${err.message}; enable it anyway with: canmap releases enable ${releaseId} --allow-shrink`);
    return err.message;
  }
}

/** validate → prepare (kind) → publish → enable if asked. Knows nothing of any particular kind. */
export function createProcessor<P extends IngestPayload>(kind: IngestKind<P>, deps: ProcessorDeps): (job: Job) => Promise<IngestResult> {
  // RELEASE_STORE: releases are uploaded there, and RELEASES_DIR is this worker's own cache.
  let bucket: Promise<ReleaseBucket | null> | undefined;
  return async (job) => {
    const store = await (bucket ??= openReleaseBucket(deps.config));
    const problem = payloadProblem(kind.payloadSchema, job.data);
    if (problem) throw new UnrecoverableError(`invalid ${kind.kind} payload: ${problem}`);
    const payload = job.data as P;
    const jobId = job.id!;
    const progress = createProgressReporter(job, (p) => deps.log('info', `job ${jobId}: ${percent(p.fraction)} ${p.message}`));
    const workDir = await makeStagingDir(deps.config.releasesDir, `work-${jobId}`);
    try {
      const spec = await kind.prepare(payload, { config: deps.config, workDir, onProgress: (p) => progress.report(p) });
      const { release, reused } = await publishRelease({ pool: deps.pool, releasesDir: deps.config.releasesDir, store }, spec);
      const enable = payload.enable || ((await deps.currentPayload(jobId)) as Partial<IngestPayload> | undefined)?.enable === true;
      const notEnabled = enable ? await enableUnlessShrunk(deps, store, release.id, jobId) : undefined;
      const enabled = enable && !notEnabled;
      progress.report({ fraction: 1, message: `${reused ? 'reused' : 'published'} release ${release.id}${enabled ? ', enabled' : notEnabled ? ', not enabled (counts fell)' : ''}` });
      return { release: release.id, reused, enabled, ...(notEnabled ? { notEnabled } : {}) };
    } catch (err) {
      if (err instanceof InvalidInputError) throw new UnrecoverableError(err.message);
      throw err;
    } finally {
      await progress.flush();
      await rm(workDir, { recursive: true, force: true });
    }
  };
}
