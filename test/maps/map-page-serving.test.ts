import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STYLE_MODES, PALETTES } from '../../engines/styles/style-names.ts';
import { ApiStack } from '../support/api-stack.ts';
import { repoPath } from '../support/paths.ts';

describe('GET /map/: the map page and its files', () => {
  let stack: ApiStack;

  beforeAll(async () => {
    stack = await ApiStack.create('map_page_serving');
    await stack.start();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  const noKey = { key: null } as const;

  it('serves the page without a key, its style picker filled with every palette light and dark', async () => {
    const page = await stack.get('/map/', noKey);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('public, max-age=300');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    const options = [...page.text.matchAll(/<option value="([a-z]+-(?:light|dark))">/g)].map((m) => m[1]);
    expect(options).toEqual(PALETTES.flatMap((p) => STYLE_MODES.map((m) => `${p}-${m}`)));
    expect(options).toHaveLength(24);
    expect(page.text).toContain('<option value="u1"></option>');
    expect(page.text).not.toContain('<!--style-options-->');
    // The key in the page URL changes nothing of the page itself.
    expect((await stack.get(`/map/?key=${stack.key}&style=base-dark`, noKey)).text).toBe(page.text);
  });

  it('answers 304 to a current ETag and moves /map to /map/ with its query', async () => {
    const first = await stack.get('/map/main.js', noKey);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const again = await stack.get('/map/main.js', { key: null, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const moved = await stack.get('/map?key=abc&style=base-dark', noKey);
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe('/map/?key=abc&style=base-dark');
  });

  it("serves MapLibre's module, worker and stylesheet byte for byte from node_modules", async () => {
    for (const [name, type] of [['maplibre-gl.mjs', 'text/javascript'], ['maplibre-gl-worker.mjs', 'text/javascript'], ['maplibre-gl.css', 'text/css']] as const) {
      const answer = await stack.getBytes(`/map/vendor/${name}?v=6`, { authorization: '' });
      expect(answer.status, name).toBe(200);
      expect(answer.headers['content-type']).toBe(`${type}; charset=utf-8`);
      expect(answer.headers['cache-control']).toBe('public, max-age=86400');
      expect(answer.body.equals(await readFile(repoPath('node_modules/maplibre-gl/dist', name))), name).toBe(true);
    }
  });

  it('serves the allow-list only: any other path under /map/ is unserved (401 without a key, 404 with one)', async () => {
    const probes = [
      '/map/nope.js', '/map/vendor/maplibre-gl.mjs.map', '/map/index.html', '/map/../package.json',
      '/map/%2e%2e/package.json', '/map/vendor/..%2f..%2fpackage.json', '/map/vendor/%2e%2e/%2e%2e/package.json',
    ];
    for (const url of probes) {
      const anonymous = await stack.get(url, noKey);
      expect(anonymous.status, url).toBe(401);
      const keyed = await stack.get(url);
      expect(keyed.status, url).toBe(404);
      expect(keyed.text, url).toBe('Not Found');
    }
  });

  it('is never metered, while the style the page then loads is a call', async () => {
    const before = await callsOf(stack);
    for (const url of ['/map/', '/map/main.js', '/map/vendor/maplibre-gl.mjs', '/map']) {
      expect((await stack.get(`${url}?key=${stack.key}`, noKey)).status).toBeLessThan(400);
    }
    expect(await callsOf(stack)).toEqual(before);
    expect((await stack.get(`/styles/base-light.json?key=${stack.key}`, noKey)).status).toBe(200);
    expect(await callsOf(stack)).toEqual({ ...before, maps: (before.maps ?? 0) + 1 });
  });

  it('stays out of the OpenAPI document', async () => {
    const doc = (await stack.get('/openapi.json')).body;
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/map'))).toEqual([]);
  });
});

async function callsOf(stack: ApiStack): Promise<Record<string, number>> {
  await stack.server!.app.meterJournal!.flush();
  const { rows } = await stack.pool.query<{ family: string; calls: number }>(
    'SELECT family, sum(calls)::int AS calls FROM usage_daily GROUP BY family',
  );
  return Object.fromEntries(rows.map((r) => [r.family, r.calls]));
}
