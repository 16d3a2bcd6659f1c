import type { Command } from '../command.ts';
import { migrateCommand } from './migrate.ts';

export const commands: Command[] = [migrateCommand];
