import type { Command } from '../command.ts';
import { accountsCommand } from './accounts.ts';
import { demoCommand } from './demo.ts';
import { feedbackCommand } from './feedback.ts';
import { ingestCommand } from './ingest.ts';
import { jobsCommand } from './jobs.ts';
import { keysCommand } from './keys.ts';
import { migrateCommand } from './migrate.ts';
import { releasesCommand } from './releases.ts';
import { roadsCommand } from './roads.ts';
import { serveCommand } from './serve.ts';
import { usageCommand } from './usage.ts';
import { workerCommand } from './worker.ts';

/** In the order `canmap help` lists them. */
export const commands: Command[] = [
  migrateCommand,
  keysCommand,
  usageCommand,
  accountsCommand,
  ingestCommand,
  jobsCommand,
  releasesCommand,
  roadsCommand,
  feedbackCommand,
  workerCommand,
  serveCommand,
  demoCommand,
];
