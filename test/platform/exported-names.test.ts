import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYER_RANK } from '../support/import-layers.ts';
import { REPO_ROOT } from '../support/paths.ts';

const DECLARATION = /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;

/** Each exported name of the production folders, with the files that declare it. */
function declarations(sources: ReadonlyArray<{ file: string; text: string }>): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const { file, text } of sources) {
    for (const [, name] of text.matchAll(DECLARATION)) byName.set(name!, [...(byName.get(name!) ?? []), file]);
  }
  return byName;
}

const declaredTwice = (byName: Map<string, string[]>): string[] =>
  [...byName].filter(([, files]) => new Set(files).size > 1).map(([name, files]) => `${name}: ${files.join(', ')}`);

function productionSources(): { file: string; text: string }[] {
  return Object.keys(LAYER_RANK).flatMap((layer) =>
    readdirSync(path.join(REPO_ROOT, layer), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => ({ file: path.join(layer, file), text: readFileSync(path.join(REPO_ROOT, layer, file), 'utf8') })));
}

describe('exported names', () => {
  it('each is declared by one production file, so a name finds one thing', () => {
    const sources = productionSources();
    expect(sources.length).toBeGreaterThan(500);
    expect(declaredTwice(declarations(sources))).toEqual([]);
  });

  it('catches a name declared in two files', () => {
    expect(declaredTwice(declarations([
      { file: 'engines/a.ts', text: 'export interface Ring { x: number }\nexport const one = 1;' },
      { file: 'lib/b.ts', text: 'export type Ring = number[];' },
    ]))).toEqual(['Ring: engines/a.ts, lib/b.ts']);
  });
});
