import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../support/paths.ts';

const readme = readFileSync(repoPath('README.md'), 'utf8');

const subfolders = (parent: string): string[] => readdirSync(repoPath(parent), { withFileTypes: true })
  .filter((entry) => entry.isDirectory()).map((entry) => `${parent}/${entry.name}/`);

describe('README', () => {
  it('reads in five minutes: at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('gives the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm test');
  });

  it.each([...subfolders('services'), ...subfolders('api/routes')])('finds %s from its table', (folder) => {
    expect(readme).toContain(`\`${folder}\``);
  });
});
