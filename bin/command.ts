import type { Config } from '../lib/config.ts';
import type { Output } from './output.ts';

export interface CommandContext {
  config: Config;
  out: Output;
}

/**
 * One `canmap <name>` command; argv excludes the command name and the global --json flag.
 * It may return an exit code for outcomes that are reported normally but are not success.
 */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], ctx: CommandContext): Promise<number | void>;
}
