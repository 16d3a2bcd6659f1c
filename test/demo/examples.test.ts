import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPTIMIZATION } from '../../bin/demo/examples.ts';
import { stopCanmapProcess, runCanmap, startCanmapProcess, startWorkerProcess, type CanmapProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { shellWords } from './curl-line.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { describeToolsAgainstHttp } from '../mcp/tools-vs-http.ts';
import { describeAnswersAgainstOpenApi } from './openapi-answers.ts';
import { printedExamples, runCurlExample, type ExampleAnswer } from './run-example.ts';

/*
 * `canmap demo` as a new user meets it: every line it prints under "try:" is run exactly as
 * printed (curl lines read as a shell and curl would, headers included) and must answer 2xx with
 * data; an upload is tiled as under `canmap worker`; and the demo
 * runs the same background jobs as `canmap worker`. The same demo answers the checks of its
 * answers against /openapi.json (openapi-answers.ts), so the suite starts one cold demo.
 */

let env: TestEnv;
let demo: CanmapProcess;
let examples: string[];
let key: string;
let api: string;

beforeAll(async () => {
  env = await createTestEnv('demo_examples');
  // A cold demo builds every sample release (about 40 s on a quiet 2-core machine, over 60 s when it is busy).
  demo = await startCanmapProcess(['demo'], env.env, /Ctrl-C stops the demo/, 230_000);
  examples = printedExamples(demo.output());
  key = /dev API key \(shown once\): (\S+)/.exec(demo.output())![1]!;
  api = /serving at (http:\/\/\S+)/.exec(demo.output())![1]!;
}, 240_000);
afterAll(async () => {
  await stopCanmapProcess(demo);
  await env?.cleanup();
});

const ok = (a: ExampleAnswer) => a.status >= 200 && a.status < 300;

describe('the examples canmap demo prints', () => {
  it('are curl commands, the map page and the usage command, nothing else', () => {
    expect(examples.length).toBeGreaterThan(30);
    const unknown = examples.filter((l) => !l.startsWith('curl ') && !l.startsWith('open in a browser') && !l.startsWith('node bin/canmap.js '));
    expect(unknown).toEqual([]);
  });

  it('each curl command answers as printed: 2xx with data', async () => {
    const answers: ExampleAnswer[] = [];
    for (const line of examples.filter((l) => l.startsWith('curl '))) answers.push(await runCurlExample(line));
    const wrong = answers
      .filter((a) => !ok(a) || a.empty)
      .map((a) => `${a.status} ${a.empty ?? ''} ${a.line}\n    ${a.excerpt}`);
    expect(wrong).toEqual([]);

    // The delivery plan is for a working day, not the format's default start of 1970.
    const plan = answers.find((a) => a.line.includes('/optimize'))!.json as { routes: { vehicleStartTime: string; visits: unknown[] }[] };
    expect(plan.routes[0]!.vehicleStartTime).toBe(DEMO_OPTIMIZATION.model.globalStartTime);
    expect(plan.routes[0]!.visits).toHaveLength(3);
  }, 120_000);

  it('the map page opens', async () => {
    const url = /(http:\/\/\S+)$/.exec(examples.find((l) => l.startsWith('open in a browser'))!)![1]!;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await page.text()).length).toBeGreaterThan(0);
  });

  it('the usage command prints the demo account\'s usage', async () => {
    const { words } = shellWords(examples.find((l) => l.startsWith('node bin/canmap.js '))!);
    const run = await runCanmap(words.slice(2), env.env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().length).toBeGreaterThan(0);
  });
});

describe('what canmap demo serves', () => {
  it('ingests and enables the samples, then serves an authenticated request with the printed key', async () => {
    const text = demo.output();
    expect(key).toMatch(/^cmk_/);
    const agencies = await fetch(`${api}/transit/agencies`, { headers: { authorization: `Bearer ${key}` } });
    expect(agencies.status).toBe(200);
    const body = (await agencies.json()) as { data: { id: string }[]; meta: { data_version: string } };
    expect(body.data.map((a) => a.id.split(':')[3]).sort()).toEqual(['halifax-ferry', 'montreal-bus', 'stjohns-bus', 'toronto-rail', 'vancouver-bus']);
    expect(text).toContain(`transit ${body.meta.data_version}`);
    expect((await fetch(`${api}/transit/agencies`)).status).toBe(401);

    const incidents = await fetch(`${api}/incidents`, { headers: { authorization: `Bearer ${key}` } });
    expect(incidents.status).toBe(200);
    const events = (await incidents.json()) as { data: { id: string; jurisdiction: string }[]; meta: { status: string } };
    expect(events.data.length).toBeGreaterThan(0);
    expect(events.data.every((e) => e.id.startsWith('svc:road:ca-bc:') && e.jurisdiction === 'CA-BC')).toBe(true);
    expect(events.meta.status).toBe('current');

    // Access on the dev plan: premium data from a dev origin only; the dashboard link opens a session.
    const facility = (origin: string) => fetch(`${api}/geocode/search?q=Crossfield+gas+plant&layers=facility`, { headers: { authorization: `Bearer ${key}`, origin } });
    expect((await facility('http://localhost:5173')).status).toBe(200);
    expect(await (await facility('https://example.com')).json()).toMatchObject({ code: 'dev_only' });
    // Land descriptions, well identifiers and parcel ids from the energy and parcel samples (add-ons: from a dev origin here).
    const lookup = async (q: string) =>
      (await (await fetch(`${api}/geocode/search?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${key}`, origin: 'http://localhost:5173' } })).json()) as { layer: string; name: string }[];
    expect(await lookup('NW-25-24-1-W5')).toMatchObject([{ layer: 'legal_land', name: 'NW-25-024-01W5' }]);
    expect(await lookup('100/06-32-048-07W5/00')).toMatchObject([{ layer: 'well', name: 'SAMPLE PEMBINA 6-32-48-7' }]);
    expect(await lookup('009-123-000')).toMatchObject([{ layer: 'parcel' }]);
    const link = /account dashboard \(open in a browser[^)]*\): (\S+)/.exec(text)?.[1];
    const login = await fetch(link!.replace('localhost', '127.0.0.1'), { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const me = await fetch(`${api}/account/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: 'demo', plan: 'dev', state: 'active' });

    // Maps: a basemap tile, a glyph range, a sprite sheet, the outdoor style with terrain, an elevation.
    const asset = async (path: string) => (await fetch(`${api}${path}${path.includes('?') ? '&' : '?'}key=${key}`)).status;
    expect(await asset('/tiles/14/2588/5606')).toBe(200);
    expect(await asset('/glyphs/2/Noto%20Sans%20Regular/5120-5375.pbf')).toBe(200);
    expect(await asset('/sprite/2/light@2x.png')).toBe(200);
    const outdoor = (await (await fetch(`${api}/styles/outdoor-light.json?key=${key}`)).json()) as { sources: Record<string, unknown> };
    expect(Object.keys(outdoor.sources)).toEqual(expect.arrayContaining(['svc', 'svc_dem', 'svc_contours']));
    expect(await asset('/elevation?at=-124.4,48.45')).toBe(200);
    expect(text).toContain(`/map/?key=${key}`);

    // Routing over the downtown sample's road graph, the matrix turned on.
    const route = await fetch(`${api}/route?from=-123.1115,49.2856&to=-123.1390,49.2750&key=${key}`);
    expect(route.status).toBe(200);
    expect(((await route.json()) as { distanceMeters: number }).distanceMeters).toBeGreaterThan(2000);
    expect(await asset('/isochrone?lon=-123.1207&lat=49.2827&minutes=5&mode=pedestrian')).toBe(200);
    const matrix = await fetch(`${api}/matrix?key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"origins":[[-123.1115,49.2856]],"destinations":[[-123.1390,49.2750]]}' });
    expect(matrix.status).toBe(200);
    const optimized = await fetch(`${api}/optimize?key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO_OPTIMIZATION) });
    expect(optimized.status).toBe(200);
    const fleet = (await optimized.json()) as { routes: { visits: unknown[]; routePolyline?: { points: string } }[] };
    expect(fleet.routes[0]!.visits).toHaveLength(3);
    expect(fleet.routes[0]!.routePolyline?.points.length).toBeGreaterThan(10);
    expect(text).toContain('/optimize');
  }, 120_000);
});

describeAnswersAgainstOpenApi(() => ({ api, key, output: demo.output() }));

describe('the MCP client configuration canmap demo prints', () => {
  it('connects as printed and lists the tools', async () => {
    const text = demo.output();
    const start = text.indexOf('{', text.indexOf('an MCP client configuration:'));
    const end = text.indexOf('\n\n', start);
    const { mcpServers } = JSON.parse(text.slice(start, end)) as { mcpServers: { canmap: { url: string; headers: Record<string, string> } } };
    const { url, headers } = mcpServers.canmap;
    expect(url).toBe(`${api.replace('127.0.0.1', 'localhost')}/mcp`);
    const client = await connectMcp(url.replace(/\/mcp$/, ''), null, headers);
    expect((await client.listTools()).tools.length).toBeGreaterThan(25);
    await client.close();
  });
});

describeToolsAgainstHttp(() => ({ api, key }));

describe('the background jobs of canmap demo', () => {
  it('tiles a GeoJSON upload until it is ready', async () => {
    const geojson = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Waterfront' }, geometry: { type: 'Point', coordinates: [-123.11185, 49.28587] } }] };
    const auth = { authorization: `Bearer ${key}` };
    const upload = await fetch(`${api}/byod?name=demo`, { method: 'POST', headers: { ...auth, 'content-type': 'application/geo+json' }, body: JSON.stringify(geojson) });
    expect(upload.status).toBe(201);
    const { id } = (await upload.json()) as { id: string };
    let overlay: { status: string; error: string | null };
    do {
      await new Promise((r) => setTimeout(r, 100));
      overlay = (await (await fetch(`${api}/byod/${id}`, { headers: auth })).json()) as typeof overlay;
    } while (overlay.status === 'processing');
    expect(overlay).toMatchObject({ status: 'ready', error: null });
  }, 60_000);

  it('are the ones canmap worker runs', async () => {
    const printed = /^background jobs: (.+)$/m.exec(demo.output())?.[1];
    expect(printed).toBeDefined();
    const worker = await startWorkerProcess(env.env);
    try {
      const started = /worker \d+ ready: (.+) \(concurrency/.exec(worker.output())?.[1];
      expect(printed!.split(', ').sort()).toEqual(started!.split(', ').sort());
      expect(printed).toContain('byod-tiles');
    } finally {
      await stopCanmapProcess(worker);
    }
  });

  it('stop on Ctrl-C with the demo', async () => {
    demo.child.kill('SIGINT');
    expect(await demo.exited).toEqual({ code: 0, signal: null });
  });
});
