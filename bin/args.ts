import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './output.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, strict, with its errors turned into a CliError the user can read. */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, usage: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(`${(err as Error).message.split('\n')[0]}\nusage: canmap ${usage}`, 2);
  }
}

/** A usage error for arguments past the `max` a command takes (`canmap migrate now`). */
export function rejectExtraArguments(positionals: readonly string[], max: number, usage: string): void {
  if (positionals.length > max) throw new CliError(`unexpected argument "${positionals[max]}"\nusage: canmap ${usage}`, 2);
}
