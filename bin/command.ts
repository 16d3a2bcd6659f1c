import type { Config } from '../lib/config.ts';
import { CliError, type Output } from './output.ts';

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

export type Subcommand = (argv: string[], ctx: CommandContext) => Promise<number | void>;

/** A command whose first argument picks one of `subcommands` (`canmap keys create`, ...). */
export function withSubcommands(command: Omit<Command, 'run'>, subcommands: Readonly<Record<string, Subcommand>>): Command {
  return {
    ...command,
    async run(argv, ctx) {
      const sub = argv[0];
      const handler = sub !== undefined && Object.hasOwn(subcommands, sub) ? subcommands[sub] : undefined;
      if (!handler) throw new CliError(`${sub ? `unknown subcommand "${sub}"` : 'missing subcommand'}\nusage: canmap ${command.usage}`, 2);
      return handler(argv.slice(1), ctx);
    },
  };
}
