import type { Command } from '../command.ts';
import { migrateCommand } from './migrate.ts';
import { releasesCommand } from './releases.ts';
import { ingestCommand } from './ingest.ts';
import { jobsCommand } from './jobs.ts';
import { workerCommand } from './worker.ts';
import { serveCommand } from './serve.ts';
import { keysCommand } from './keys.ts';

export const commands: Command[] = [migrateCommand, releasesCommand, ingestCommand, jobsCommand, workerCommand, serveCommand, keysCommand];
