import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../bin/commands/index.ts';
import { ConfigVariables } from '../../schemas/config.ts';
import { repoPath } from '../support/paths.ts';

const commands = await loadCommands();

const readme = readFileSync(repoPath('README.md'), 'utf8');

describe('README', () => {
  it.each(Object.entries(ConfigVariables))('documents %s with its default', (name, schema) => {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, `README config table has no row for ${name}`).toBeDefined();
    if (schema.default !== '') expect(row).toContain(`\`${schema.default}\``);
  });

  it.each(commands.map((c) => c.name))('shows the %s command', (name) => {
    expect(readme).toMatch(new RegExp(`npx canmap ${name}|npm run ${name}`));
  });

  it('gives the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm test');
  });
});
