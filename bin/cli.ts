import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from '../lib/config.ts';
import type { Command } from './command.ts';
import { CliError, createOutput } from './output.ts';
import { COMMAND_NAMES, loadCommand, loadCommands, type CommandName } from './commands/index.ts';
import { COMMAND_ALIASES, resolveName, unknownNameError } from './names.ts';
import { explainServiceError } from './services.ts';
import { terminalColumns, usageLines, wrap, wrapUsageInMessage } from './usage-text.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function commandHelp(c: Command, width: number): string[] {
  return [...usageLines(c.name, c.usage, width, '  '), ...wrap(c.summary, width, '      ')];
}

function help(commands: readonly Command[], width: number): string {
  return [
    'canmap: ingest map data into versioned releases and serve them.',
    '',
    'Usage: canmap <command> [options] [--json]',
    '       canmap --version | --help | <command> --help',
    '',
    ...commands.flatMap((c) => commandHelp(c, width)),
    '',
    ...wrap('Every command accepts --json and then prints one JSON document on stdout. Exit codes: 0 success, 1 failure, 2 usage error, 78 bad configuration.', width),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  const out = createOutput(json);
  const width = terminalColumns(json ? process.stderr : process.stdout);
  const given = args[0];
  if (given === '--version' || given === '-V' || given === 'version') {
    out.result({ version: VERSION }, VERSION);
    return 0;
  }
  if (given === 'help' || given === '--help' || given === '-h') {
    const commands = await loadCommands();
    out.result({ commands: commands.map(({ name, usage, summary }) => ({ name, usage, summary })) }, help(commands, width));
    return 0;
  }
  let config: Config | undefined;
  try {
    if (!given) throw new CliError(json ? 'a command is required; run canmap help' : `a command is required\n\n${help(await loadCommands(), terminalColumns(process.stderr))}`, 2);
    const name = resolveName(given, COMMAND_NAMES, COMMAND_ALIASES) as CommandName | undefined;
    if (!name) throw unknownNameError('command', given, COMMAND_NAMES, '; run canmap help');
    const command = await loadCommand(name);
    if (args.includes('--help') || args.includes('-h')) {
      out.result({ usage: command.usage, summary: command.summary }, ['Usage:', ...commandHelp(command, width)].join('\n'));
      return 0;
    }
    config = loadConfig(process.env);
    return (await command.run(args.slice(1), { config, out })) ?? 0;
  } catch (err) {
    const explained = config && !(err instanceof CliError) ? await explainServiceError(err, config) : null;
    const message = explained ?? (err instanceof Error ? err.message : String(err));
    if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`canmap${given ? ` ${given}` : ''}: ${wrapUsageInMessage(message, terminalColumns(process.stderr))}\n`);
    if (err instanceof CliError) return err.exitCode;
    return err instanceof ConfigError ? 78 : 1; // 78 = EX_CONFIG
  }
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
