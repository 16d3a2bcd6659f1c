import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importEdges, layerViolations } from '../support/import-layers.ts';
import { REPO_ROOT } from '../support/paths.ts';

describe('import direction', () => {
  const edges = importEdges(REPO_ROOT);

  it('reads the imports of the tree', () => {
    // Guards the checks below against reading nothing.
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: 'api/routes/transit/stop.ts', to: 'schemas/transit-api.ts' });
  });

  it('schemas → lib → releases → engines → io → services → ingest | api → jobs → bin: no layer imports one above it, ingest and api never each other, tests never bench/, production neither', () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it('has no import circle', () => {
    expect(importCycles(edges)).toEqual([]);
  });

  it('catches what breaks the rule', () => {
    expect(layerViolations([
      { from: 'engines/geocoding/search.ts', to: 'api/app.ts' },
      { from: 'api/routes/transit/stop.ts', to: 'ingest/transit/build.ts' },
      { from: 'ingest/transit/build.ts', to: 'api/app.ts' },
      { from: 'schemas/common.ts', to: 'lib/postgres.ts' },
      { from: 'lib/keys.ts', to: 'test/support/paths.ts' },
      { from: 'api/app.ts', to: 'schemas/common.ts' },
      { from: 'jobs/worker.ts', to: 'ingest/transit/build.ts' },
      { from: 'test/routing/a.test.ts', to: 'bench/routing/serve.ts' },
      { from: 'test/routing/a.test.ts', to: 'test/support/paths.ts' },
      { from: 'bench/routing/serve.ts', to: 'test/support/paths.ts' },
      { from: 'bench/routing/serve.ts', to: 'test/routing/route-api.test.ts' },
      { from: 'test/support/env.ts', to: 'bench/support/measure.ts' },
      { from: 'engines/routing/graph.ts', to: 'bench/support/measure.ts' },
    ])).toEqual([
      'engines/geocoding/search.ts -> api/app.ts',
      'api/routes/transit/stop.ts -> ingest/transit/build.ts',
      'ingest/transit/build.ts -> api/app.ts',
      'schemas/common.ts -> lib/postgres.ts',
      'lib/keys.ts -> test/support/paths.ts',
      'test/routing/a.test.ts -> bench/routing/serve.ts',
      'bench/routing/serve.ts -> test/routing/route-api.test.ts',
      'test/support/env.ts -> bench/support/measure.ts',
      'engines/routing/graph.ts -> bench/support/measure.ts',
    ]);
    expect(importCycles([
      { from: 'a.ts', to: 'b.ts' }, { from: 'b.ts', to: 'c.ts' }, { from: 'c.ts', to: 'a.ts' }, { from: 'c.ts', to: 'd.ts' },
    ])).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});

describe('engines hold no state', () => {
  const WORLD = /from '(?:pg|ioredis|bullmq|undici|node:https?|node:net)'|lib\/(?:postgres|redis)\.ts'|\bfetch\(/;
  const engineFiles = readdirSync(path.join(REPO_ROOT, 'engines'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js)$/.test(file)).map((file) => path.join('engines', file));

  it('no engine opens a database, a queue or a connection: that is io/', () => {
    expect(engineFiles.length).toBeGreaterThan(200);
    expect(engineFiles.filter((file) => WORLD.test(readFileSync(path.join(REPO_ROOT, file), 'utf8')))).toEqual([]);
  });

  it('recognizes what touches the world', () => {
    expect(["import pg from 'pg';", "import { createPool } from '../../lib/postgres.ts';", 'await fetch(url)', "import { x } from '../y.ts';"]
      .map((line) => WORLD.test(line))).toEqual([true, true, true, false]);
  });
});
