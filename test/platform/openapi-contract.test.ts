import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import type pg from 'pg';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { documentedPath } from '../../api/openapi/documented-paths.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

/*
 * /openapi.json as a client contract: every served route documented and nothing else, a valid
 * document with unique operationIds and numeric query parameters typed as numbers, and a client
 * generated from it by openapi-typescript that type-checks correct calls and refuses wrong ones.
 */

type Parameter = { name: string; in: string; required: boolean; schema: { type?: string }; description?: string };
type Operation = { operationId?: string; parameters?: Parameter[] };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

let env: TestEnv;
let pool: pg.Pool;
let app: FastifyInstance;
let doc: Doc;

beforeAll(async () => {
  env = await createTestEnv('openapi_contract');
  pool = createPool(env.config.databaseUrl, 2);
  const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
  app = await buildApp({ config: env.config, pool, releases, logger: false, meterJournal: null });
  const { key } = await createKey(pool, {});
  const res = await app.inject({ url: '/openapi.json', headers: { authorization: `Bearer ${key}` } });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await app?.close();
  await pool?.end();
  await env?.cleanup();
});

const operations = () => Object.entries(doc.paths).flatMap(([p, methods]) => Object.entries(methods).map(([method, op]) => ({ path: p, method: method.toUpperCase(), op })));

/** Routes the server registers on purpose without documenting them, each with its reason. */
const UNDOCUMENTED: { reason: string; matches: (method: string, url: string) => boolean }[] = [
  { reason: 'HEAD is the automatic twin of each GET (same answer without a body)', matches: (method) => method === 'HEAD' },
  { reason: 'OPTIONS * is the CORS preflight catch-all, not an operation', matches: (method, url) => method === 'OPTIONS' && url === '*' },
  { reason: 'the map page and its scripts are a browser page, not part of the API', matches: (_m, url) => url === '/map' || url.startsWith('/map/') },
  { reason: 'the API docs page and its files are a browser page over this document', matches: (_m, url) => url === '/docs' || url.startsWith('/docs/') },
  { reason: '/mcp speaks JSON-RPC (the Model Context Protocol): its tools describe themselves in tools/list (docs/mcp.md)', matches: (_m, url) => url === '/mcp' },
  {
    reason: 'the account dashboard page and its scripts and styles are a browser page (its JSON calls /account/me and /account/usage are documented)',
    matches: (_m, url) => url === '/account' || url === '/account/' || /^\/account\/[\w./-]+\.(js|css)$/.test(url),
  },
];

describe('/openapi.json documents exactly what the server serves', () => {
  it('every registered route is documented, under its public path', () => {
    const served = app.registeredRoutes().filter((r) => !UNDOCUMENTED.some((u) => u.matches(r.method, r.url)));
    const missing = served.filter((r) => doc.paths[documentedPath(r.url)]?.[r.method.toLowerCase()] === undefined).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    // The four optimization alias paths among them, in the form the format publishes.
    expect(Object.keys(doc.paths).filter((p) => p.endsWith(':optimizeTours')).sort()).toEqual([
      '/projects/{project}/locations/{location}:optimizeTours',
      '/projects/{project}:optimizeTours',
      '/v1/projects/{project}/locations/{location}:optimizeTours',
      '/v1/projects/{project}:optimizeTours',
    ]);
  });

  it('every documented operation is served', () => {
    const served = new Set(app.registeredRoutes().map((r) => `${r.method} ${documentedPath(r.url)}`));
    expect(operations().map((o) => `${o.method} ${o.path}`).filter((o) => !served.has(o))).toEqual([]);
  });
});

/** Query parameters that carry a number (as their descriptions and the spec say). */
const NUMERIC = new Set(['limit', 'radius', 'lon', 'lat', 'samples', 'window', 'height', 'width', 'length', 'weight', 'axle_load', 'axle_count', 'use_highways', 'use_hills', 'use_truck_route']);

describe('the document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(operations().filter((o) => typeof o.op.operationId !== 'string' || !/^[a-z][A-Za-z0-9]+$/.test(o.op.operationId)).map((o) => `${o.method} ${o.path}`)).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('types numeric query parameters as numbers, and marks required what the endpoint requires', () => {
    const queries = operations().flatMap((o) => (o.op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ at: `${o.method} ${o.path} ${p.name}`, p })));
    const numeric = queries.filter(({ p }) => NUMERIC.has(p.name));
    expect(numeric.length).toBeGreaterThan(40);
    expect(numeric.filter(({ p }) => p.schema.type !== 'integer' && p.schema.type !== 'number').map((q) => q.at)).toEqual([]);
    expect(queries.filter(({ p }) => /\(required[;),]/.test(p.description ?? '') && !p.required).map((q) => q.at)).toEqual([]);
    expect(queries.filter(({ p }) => p.required && (p.schema as { default?: unknown }).default !== undefined).map((q) => q.at)).toEqual([]);
  });

  it('publishes the shared objects as components, referenced by the operations, with examples that match their schemas', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Error', 'GeocodeResult', 'Place', 'Stop', 'RoadEvent', 'LayerFeature', 'Overlay']));
    const text = JSON.stringify(doc.paths);
    for (const name of Object.keys(doc.components.schemas)) expect(text, name).toContain(`"#/components/schemas/${name}"`);
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const examples = operations().flatMap(({ path: p, method, op }) => {
      const { requestBody, responses } = op as { requestBody?: { content: Record<string, { schema: object; example?: unknown }> }; responses: Record<string, { content?: Record<string, { schema: object; example?: unknown }> }> };
      const media = [['request', requestBody?.content], ...Object.entries(responses).map(([status, r]) => [status, r.content])] as const;
      return media.flatMap(([where, content]) => Object.entries(content ?? {}).filter(([, m]) => m.example !== undefined).map(([, m]) => ({ at: `${method} ${p} ${where}`, m })));
    });
    expect(examples.map((e) => e.at)).toEqual(expect.arrayContaining(['GET /geocode/search 200', 'POST /geocode/batch request', 'POST /optimize request', 'GET /geocode/search 400']));
    const wrong = examples.filter(({ m }) => !ajv.validate({ ...m.schema, components: doc.components }, m.example)).map((e) => `${e.at}: ${ajv.errorsText()}`);
    expect(wrong).toEqual([]);
  });

  it('documents the tile 400 as the plain text it is', () => {
    const tile = doc.paths['/tiles/{z}/{x}/{y}']!.get as unknown as { responses: Record<string, { content?: Record<string, unknown> }> };
    expect(Object.keys(tile.responses['400']!.content!)).toEqual(['text/plain']);
    expect(Object.keys(tile.responses['200']!.content!)).toEqual(['application/x-protobuf']);
  });
});

/** Pairs of client lines: the first must type-check against the generated types, the second (one mistake) must not. */
const CASES: [name: string, good: string, bad: string][] = [
  ['a numeric limit', `const q: Query<'geocodeSearch'> = { q: 'Calgary', limit: 5 };`, `const q: Query<'geocodeSearch'> = { q: 'Calgary', limit: '5' };`],
  ['a required q', `const q: Query<'geocodeSearch'> = { q: 'Calgary' };`, `const q: Query<'geocodeSearch'> = { limit: 5 };`],
  ['a numeric radius near a stop', `const q: Query<'listTransitStopsNearby'> = { near: '-123.1207,49.2827', radius: 800 };`, `const q: Query<'listTransitStopsNearby'> = { near: '-123.1207,49.2827', radius: '800' };`],
  ['a numeric sample count', `const q: Query<'getElevation'> = { path: '-124.3,48.1;-124.2,48.15', samples: 20 };`, `const q: Query<'getElevation'> = { path: '-124.3,48.1;-124.2,48.15', samples: '20' };`],
  ['a tile path', `const t: paths['/tiles/{z}/{x}/{y}']['get']['parameters']['path'] = { z: '12', x: '1171', y: '1513.mvt' };`, `const t: paths['/tiles/{z}/{x}/{y}']['get']['parameters']['path'] = { z: '12', x: '1171' };`],
  ['a plain-text tile 400', `const t: paths['/tiles/{z}/{x}/{y}']['get']['responses'][400]['content']['text/plain'] = 'invalid tile coordinates';`, `type T = paths['/tiles/{z}/{x}/{y}']['get']['responses'][400]['content']['application/json'];`],
  ['an /optimize body', `const b: Body<'optimizeTours'> = ${JSON.stringify({ model: { globalStartTime: '2026-03-02T08:00:00-05:00', shipments: [{ deliveries: [{ arrivalLocation: { latitude: 45.4255, longitude: -75.692 } }] }], vehicles: [{ startLocation: { latitude: 45.4215, longitude: -75.6972 } }] } })};`, `const b: Body<'optimizeTours'> = { model: { shipments: 'three parcels' } };`],
  ['an alias path', `type T = paths['/v1/projects/{project}:optimizeTours']['post']['requestBody'];`, `type T = paths['/v1/projects/{project}:optimizeRoutes']['post']['requestBody'];`],
  ['a geocoding answer', `const r: Json<operations['geocodeSearch']['responses'][200]> = []; const n: string | undefined = r[0]?.name;`, `const r: Json<operations['geocodeSearch']['responses'][200]> = []; const n: number | undefined = r[0]?.name;`],
  ['an error body', `const e: Json<operations['geocodeSearch']['responses'][400]> = { error: 'q required' };`, `const e: Json<operations['geocodeSearch']['responses'][400]> = { message: 'q required' };`],
];

const PRELUDE = `import type { operations, paths } from './api.ts';
type Query<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>;
type Body<O extends keyof operations> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
`;

describe('a client generated by openapi-typescript', () => {
  let errors: Map<string, string[]>;
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-openapi-client-'));
    try {
      await writeFile(path.join(dir, 'api.ts'), astToString(await openapiTS(doc as never)));
      const files: string[] = [];
      for (const [i, [, good, bad]] of CASES.entries()) {
        for (const [kind, line] of [['good', good], ['bad', bad]] as const) {
          const file = path.join(dir, `${kind}-${i}.ts`);
          await writeFile(file, `${PRELUDE}${line}\nexport {};\n`);
          files.push(file);
        }
      }
      // One program for every file: the generated types are checked once.
      const program = ts.createProgram(files, {
        strict: true, noEmit: true, noUnusedLocals: false, allowImportingTsExtensions: true, skipLibCheck: true,
        module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler,
      });
      errors = new Map(files.map((f) => [path.basename(f), []]));
      for (const d of ts.getPreEmitDiagnostics(program)) {
        const name = d.file ? path.basename(d.file.fileName) : 'global';
        if (!errors.has(name)) errors.set(name, []);
        errors.get(name)!.push(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('checks the generated types themselves without error', () => {
    expect([...errors].filter(([name, list]) => !/^(good|bad)-/.test(name) && list.length > 0)).toEqual([]);
  });

  it.each(CASES.map(([name], i) => [name, i] as const))('%s: the right call type-checks, the wrong one does not', (_name, i) => {
    expect(errors.get(`good-${i}.ts`)).toEqual([]);
    expect(errors.get(`bad-${i}.ts`)!.length).toBeGreaterThan(0);
  });
});
