import type { Config } from '../lib/config.ts';
import type { Output } from './output.ts';

export interface CommandContext {
  config: Config;
  out: Output;
}

/** One `canmap <name>` command; argv excludes the command name and the global --json flag. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], ctx: CommandContext): Promise<void>;
}
