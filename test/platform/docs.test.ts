import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../bin/commands/index.ts';
import { configTable, tableBetweenMarkers } from '../../bin/docs-config.ts';
import { repoPath } from '../support/paths.ts';

const commands = await loadCommands();

const operations = readFileSync(repoPath('docs/operations.md'), 'utf8');

/** Every markdown file under a folder, as repository-relative paths. */
function markdownUnder(folder: string): string[] {
  if (!existsSync(repoPath(folder))) return [];
  return readdirSync(repoPath(folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join(folder, file));
}

const benchResults = readdirSync(repoPath('bench'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(repoPath('bench', entry.name, 'RESULTS.md')))
  .map((entry) => path.join('bench', entry.name, 'RESULTS.md'));

const documents = [...markdownUnder('docs'), ...benchResults];

/** The READMEs beside the code (engines/, api/routes/, jobs/, …) and the front page. */
const codeReadmes = ['README.md', ...['engines', 'io', 'services', 'api/routes', 'api/plugins', 'jobs']
  .map((folder) => path.join(folder, 'README.md')).filter((file) => existsSync(repoPath(file)))];

const TOP_FOLDERS = 'schemas|lib|releases|engines|io|services|ingest|api|jobs|bin|samples|test|bench|web|docs';

/**
 * Repository paths a document names in code spans (`engines/transit/`, `lib/errors.ts`),
 * placeholders, globs and generated output (bench/out/) left out.
 */
function namedPaths(markdown: string): string[] {
  return [...markdown.matchAll(new RegExp(`\`((?:${TOP_FOLDERS})/[^\`\\s]*)\``, 'g'))]
    .map((match) => match[1]!.replace(/[.,:;)]+$/, '').replace(/#.*$/, ''))
    .filter((named) => !/[<>*{}…|]|\.\.\./.test(named) && !named.startsWith('bench/out/'));
}

/** The relative targets of a markdown file's links (`[text](target)`), code spans and blocks left out. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
}

describe('docs', () => {
  it('docs/operations.md has the configuration table generated from schemas/config.ts', () => {
    const table = tableBetweenMarkers(operations);
    expect(table, 'docs/operations.md lacks <!-- config-table:start --> … <!-- config-table:end -->').not.toBeNull();
    expect(table, 'the configuration table is out of date: run `npm run docs:config`').toBe(configTable());
  });

  it.each(commands.map((c) => c.name))('docs/operations.md shows the %s command', (name) => {
    expect(operations).toMatch(new RegExp(`npx canmap ${name}\\b|npm run ${name}\\b`));
  });

  it('finds the documents it checks', () => {
    expect(documents).toContain(path.join('docs', 'operations.md'));
    expect(documents).toContain(path.join('docs', 'architecture.md'));
    expect(benchResults.length).toBeGreaterThan(0);
  });

  it.each([...documents, ...codeReadmes])('every repository path %s names exists', (document) => {
    const missing = namedPaths(readFileSync(repoPath(document), 'utf8')).filter((named) => !existsSync(repoPath(named)));
    expect(missing, `${document} names paths that do not exist`).toEqual([]);
  });

  it('the glossary of docs/architecture.md names every facade and every routes folder, each path existing', () => {
    const architecture = readFileSync(repoPath('docs/architecture.md'), 'utf8');
    const glossary = architecture.slice(architecture.indexOf('## Glossary'));
    expect(glossary.length).toBeGreaterThan(1000);
    const named = namedPaths(glossary);
    const folders = (parent: string) => readdirSync(repoPath(parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory()).map((entry) => `${parent}/${entry.name}/`);
    for (const folder of [...folders('services'), ...folders('api/routes'), ...folders('engines'), ...folders('io')]) {
      expect(named, `the glossary does not name ${folder}`).toContain(folder);
    }
    expect(named.filter((p) => !existsSync(repoPath(p)))).toEqual([]);
  });

  it('catches a named path that does not exist', () => {
    expect(namedPaths('see `engines/transit/` and `api/routes/<domain>/` and `lib/nothing-here.ts`.'))
      .toEqual(['engines/transit/', 'lib/nothing-here.ts']);
  });

  it.each(documents)('every relative link of %s points to an existing file', (document) => {
    const folder = path.dirname(repoPath(document));
    const missing = relativeLinks(readFileSync(repoPath(document), 'utf8'))
      .filter((target) => !existsSync(path.resolve(folder, decodeURI(target.split('#')[0]!))));
    expect(missing, `${document} links to files that do not exist`).toEqual([]);
  });
});
