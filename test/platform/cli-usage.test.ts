import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../bin/commands/index.ts';
import { ingestKinds } from '../../jobs/kinds/index.ts';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';

const commands = await loadCommands();

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv('cli_usage');
});
afterAll(async () => {
  await env?.cleanup();
});

const VERSION = (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { version: string }).version;
const longLines = (text: string) => text.split('\n').filter((line) => line.length > 80);

describe('canmap version and usage', () => {
  it('prints the package version for --version, -V and version', async () => {
    for (const flag of ['--version', '-V', 'version']) {
      const run = await runCanmap([flag], env.env);
      expect([run.code, run.stdout]).toEqual([0, `${VERSION}\n`]);
    }
    expect(JSON.parse((await runCanmap(['--version', '--json'], env.env)).stdout)).toEqual({ version: VERSION });
  });

  it('exits 2 without a command, with the usage on stderr', async () => {
    const run = await runCanmap([], env.env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('a command is required');
    expect(run.stderr).toContain('Usage: canmap <command>');
  });

  it('wraps the help and every command\'s usage to 80 columns', async () => {
    const all = await runCanmap(['--help'], env.env);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('canmap ingest transit --feeds FILE [--enable] [--wait]');
    expect(longLines(all.stdout)).toEqual([]);
    // Each command's own help is built from the same lines; every command's usage appears above.
    for (const command of commands) expect(all.stdout, command.name).toContain(`canmap ${command.name}`);
    const ingest = await runCanmap(['ingest', '--help'], env.env);
    expect(ingest.code).toBe(0);
    expect(longLines(ingest.stdout)).toEqual([]);
    expect(ingest.stdout.split('\n').filter((line) => line.startsWith('  canmap ingest '))).toHaveLength(ingestKinds.length + 1); // + road-events
  });
});

describe('unknown names', () => {
  it('releases list --kind nonsense exits 2 naming the valid kinds', async () => {
    const run = await runCanmap(['releases', 'list', '--kind', 'nonsense'], env.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown kind "nonsense"');
    expect(run.stderr).toMatch(/kinds: .*geocoding.*transit/);
    expect((await runCanmap(['releases', 'list', '--kind', 'transit', '--json'], env.env)).code).toBe(0);
  });

  it('suggest the nearest command, subcommand or kind', async () => {
    const cases: [string[], string][] = [
      [['relases', 'list'], 'unknown command "relases" (did you mean "releases"?)'],
      [['releases', 'enabel', 'x'], 'unknown subcommand "enabel" (did you mean "enable"?)'],
      [['ingest', 'transt', '--feeds', 'x'], 'unknown kind "transt" (did you mean "transit"?)'],
      [['jobs', '--kind', 'geocodng'], 'unknown kind "geocodng" (did you mean "geocoding"?)'],
    ];
    for (const [args, message] of cases) {
      const run = await runCanmap(args, env.env);
      expect([run.code, run.stderr], args.join(' ')).toEqual([2, expect.stringContaining(message)]);
    }
  });

  it('accept obvious aliases: ingest gtfs is ingest transit', async () => {
    const run = await runCanmap(['ingest', 'gtfs'], env.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--feeds FILE is required');
    expect(run.stderr).toContain('canmap ingest transit --feeds FILE');
  });

  it('refuse arguments a command does not take', async () => {
    const run = await runCanmap(['migrate', 'now'], env.env);
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining('unexpected argument "now"')]);
  });
});
