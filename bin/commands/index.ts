import type { Command } from '../command.ts';
import { migrateCommand } from './migrate.ts';
import { releasesCommand } from './releases.ts';

export const commands: Command[] = [migrateCommand, releasesCommand];
