import type { Pool } from 'pg';
import type { Config } from '../../lib/config.ts';
import type { JobLog } from '../log.ts';

export interface ScheduleContext {
  config: Config;
  pool: Pool;
  log: JobLog;
  /** Aborted when the worker stops: the job gives up its HTTP requests (it stores nothing partial). */
  signal: AbortSignal;
}

/**
 * Work the worker repeats on an interval (live feeds), unlike ingest kinds which run on demand
 * and publish releases. Each has its own queue `schedule-<name>` with a BullMQ job scheduler.
 */
export interface ScheduledJob {
  name: string;
  /** Interval from the config; 0 = not scheduled. */
  everyMs(config: Config): number;
  /** One run; returns a one-line summary for the log. Throws when the run failed. */
  run(ctx: ScheduleContext): Promise<string>;
}

export const scheduleQueueName = (name: string) => `schedule-${name}`;
