import type { Config } from '../lib/config.ts';
import { createPool, type Pool } from '../lib/postgres.ts';
import { unknownNameError } from './names.ts';
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
      if (!sub) throw new CliError(`a subcommand is required\nusage: canmap ${command.usage}`, 2);
      if (!handler) throw unknownNameError('subcommand', sub, Object.keys(subcommands), `\nusage: canmap ${command.usage}`);
      return handler(argv.slice(1), ctx);
    },
  };
}

/** An error class a command reports as a CliError with this exit code instead of a crash. */
export type ReportedError = readonly [new (...args: never[]) => Error, number];

/**
 * Runs fn with a small Postgres pool of its own, ended afterwards; errors of the `reported`
 * classes become CliErrors (their message, their exit code).
 */
export async function withPool<T>(ctx: CommandContext, fn: (pool: Pool) => Promise<T>, reported: readonly ReportedError[] = []): Promise<T> {
  const pool = createPool(ctx.config.databaseUrl, 2);
  try {
    return await fn(pool);
  } catch (err) {
    const match = reported.find(([type]) => err instanceof type);
    if (match && err instanceof Error) throw new CliError(err.message, match[1]);
    throw err;
  } finally {
    await pool.end();
  }
}
