import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The layering rule of the tree (docs/architecture.md): each top-level folder imports only
 * folders of a lower rank, or its own; `ingest/` and `api/` share a rank and never import each
 * other. Production code never imports test/ or bench/. Tests import production code and
 * test/support/, never bench/; benchmarks import production code, bench/ and test/support/ (the
 * generators and harness both share), never a test file.
 */
export const LAYER_RANK: Readonly<Record<string, number>> = {
  schemas: 0,
  lib: 1,
  releases: 2,
  engines: 3,
  io: 4,
  services: 5,
  ingest: 6,
  api: 6,
  samples: 7,
  jobs: 7,
  bin: 8,
};

export interface ImportEdge { from: string; to: string }

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm;

/** Every relative import of the .ts/.js files under the checked folders, as repository paths. */
export function importEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|js)$/.test(entry.name)) {
        for (const m of readFileSync(path.join(root, rel), 'utf8').matchAll(IMPORT)) {
          edges.push({ from: rel, to: path.normalize(path.join(dir, m[1]!)) });
        }
      }
    }
  };
  for (const layer of [...Object.keys(LAYER_RANK), 'test', 'bench']) walk(layer);
  return edges;
}

/** The edges that break the rule, each as `from -> to`. */
export function layerViolations(edges: readonly ImportEdge[]): string[] {
  const top = (p: string) => p.split(path.sep)[0]!;
  return edges.filter(({ from, to }) => {
    const a = top(from);
    const b = top(to);
    if (a === 'test' || a === 'bench') return !harnessMayImport(a, to);
    if (a === b) return false;
    const rankA = LAYER_RANK[a];
    const rankB = LAYER_RANK[b];
    // A checked folder importing bench/, test/ or anything unranked breaks the rule too.
    return rankA === undefined || rankB === undefined || rankB >= rankA;
  }).map(({ from, to }) => `${from} -> ${to}`);
}

const SHARED_SUPPORT = `test${path.sep}support${path.sep}`;

/** What tests and benchmarks may import: production code, test/support/, and their own folder. */
function harnessMayImport(from: 'test' | 'bench', to: string): boolean {
  const b = to.split(path.sep)[0]!;
  if (LAYER_RANK[b] !== undefined || to.startsWith(SHARED_SUPPORT)) return true;
  if (from === 'test') return b === 'test';
  return b === 'bench';
}

/** Import circles among the files of the checked folders (each reported once, as a path of files). */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of next.keys()) if (!state.has(file)) visit(file);
  return cycles;
}
