import { ConfigError, loadConfig } from '../lib/config.ts';
import type { Command } from './command.ts';
import { CliError, createOutput } from './output.ts';
import { commands } from './commands/index.ts';

function help(): string {
  return [
    'canmap: ingest map data into versioned releases and serve them.',
    '',
    'Usage: canmap <command> [options] [--json]',
    '',
    ...commands.flatMap((c) => [`  canmap ${c.usage}`, `      ${c.summary}`]),
    '',
    'Every command accepts --json and then prints one JSON document on stdout.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  const out = createOutput(json);
  const name = args[0];
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    out.result({ commands: commands.map(({ name, usage, summary }) => ({ name, usage, summary })) }, help());
    return name ? 0 : 1;
  }
  const command: Command | undefined = commands.find((c) => c.name === name);
  try {
    if (!command) throw new CliError(`unknown command "${name}"; run canmap help`, 2);
    if (args.includes('--help') || args.includes('-h')) {
      out.result({ usage: command.usage, summary: command.summary }, `Usage: canmap ${command.usage}\n${command.summary}`);
      return 0;
    }
    const config = loadConfig(process.env);
    return (await command.run(args.slice(1), { config, out })) ?? 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`canmap ${name}: ${message}\n`);
    if (err instanceof CliError) return err.exitCode;
    return err instanceof ConfigError ? 78 : 1; // 78 = EX_CONFIG
  }
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
