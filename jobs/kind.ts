import type { ParseArgsConfig } from 'node:util';
import type { TSchema } from '@sinclair/typebox';
import type { Config } from '../lib/config.ts';
import type { PublishSpec } from '../releases/publish.ts';

/** Every ingest payload carries `enable`: publish, then enable the release as the job's last step. */
export interface IngestPayload {
  enable: boolean;
}

export interface JobProgress {
  /** 0..1 */
  fraction: number;
  message: string;
}

export interface JobContext {
  config: Config;
  /** Empty scratch directory of this attempt (downloads, unpacked files); deleted when the attempt ends. */
  workDir: string;
  onProgress(progress: JobProgress): void;
}

export interface IngestKindCli<P extends IngestPayload> {
  /** Usage after `canmap ingest`, e.g. `transit --feeds FILE`. */
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Resolves and validates the command line into a payload (without `enable`, which the CLI adds). */
  toPayload(positionals: string[], values: Record<string, unknown>): Promise<Omit<P, 'enable'>>;
}

/**
 * One source kind the job runner can ingest. The runner is generic: it validates the payload,
 * calls `prepare` and publishes (and optionally enables) what it returns.
 */
export interface IngestKind<P extends IngestPayload = IngestPayload> {
  kind: string;
  /** TypeBox schema of the whole payload (including `enable`); checked on enqueue and in the worker. */
  payloadSchema: TSchema;
  cli: IngestKindCli<P>;
  /** Stable text naming the source; same text → same job id while the job is pending. */
  jobKey(payload: P): string;
  /** Fetches and validates the inputs; throws InvalidInputError for input retrying cannot fix. */
  prepare(payload: P, ctx: JobContext): Promise<PublishSpec>;
}

export interface IngestResult {
  release: string;
  reused: boolean;
  enabled: boolean;
  /** Why the release was not enabled although the payload asked for it (its counts fell too far). */
  notEnabled?: string;
}
