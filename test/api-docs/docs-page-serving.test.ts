import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../api/server.ts';
import { ApiStack } from '../support/api-stack.ts';

const SWAGGER_UI_PACKAGE = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
const { version: SWAGGER_UI_VERSION } = JSON.parse(await readFile(SWAGGER_UI_PACKAGE, 'utf8')) as { version: string };
const VENDOR = `/docs/vendor/${SWAGGER_UI_VERSION}`;

describe('GET /docs: the API reference page and its files over HTTP', () => {
  let stack: ApiStack;
  let log = '';

  beforeAll(async () => {
    stack = await ApiStack.create('api_docs_serving');
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        log += chunk.toString('utf8');
        callback();
      },
    });
    stack.server = await startServer(stack.env.config, { logger: { level: 'info', stream } });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  const noKey = { key: null } as const;

  it('serves the page without a key: HTML whose CSP runs only its own scripts, nosniff, no inline script', async () => {
    const page = await stack.get('/docs', noKey);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin');
    const csp = String(page.headers['content-security-policy']);
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives.get('connect-src')?.[0]).toBe("'self'");
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    // Every script is a file of its own; nothing is fetched from another site.
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => /src="([^"]+)"/.exec(m[1]!)?.[1])).toEqual([`docs/vendor/${SWAGGER_UI_VERSION}/swagger-ui-bundle.js`, 'docs/docs.js']);
    expect(scripts.every((m) => m[2]!.trim() === '')).toBe(true);
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.text).not.toContain('<!--swagger-ui-version-->');
    // The key in the page URL changes nothing of the page itself.
    expect((await stack.get(`/docs?key=${stack.key}`, noKey)).text).toBe(page.text);
  });

  it("serves its script and stylesheet, and Swagger UI's files byte for byte from node_modules under a versioned, immutable URL", async () => {
    for (const [url, type] of [['/docs/docs.js', 'text/javascript'], ['/docs/docs.css', 'text/css']] as const) {
      const answer = await stack.get(url, noKey);
      expect(answer.status, url).toBe(200);
      expect(answer.headers['content-type'], url).toBe(`${type}; charset=utf-8`);
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
      expect(answer.headers['cache-control'], url).toBe('public, max-age=300');
      const again = await stack.get(url, { key: null, headers: { 'if-none-match': String(answer.headers.etag) } });
      expect(again.status, url).toBe(304);
    }
    for (const [name, type] of [['swagger-ui-bundle.js', 'text/javascript'], ['swagger-ui.css', 'text/css']] as const) {
      const answer = await stack.getBytes(`${VENDOR}/${name}`, { authorization: '' });
      expect(answer.status, name).toBe(200);
      expect(answer.headers['content-type'], name).toBe(`${type}; charset=utf-8`);
      expect(answer.headers['cache-control'], name).toBe('public, max-age=31536000, immutable');
      expect(answer.headers['x-content-type-options'], name).toBe('nosniff');
      expect(answer.body.equals(await readFile(path.join(path.dirname(SWAGGER_UI_PACKAGE), name))), name).toBe(true);
    }
  });

  it('moves /docs/ to /docs with its query', async () => {
    const moved = await stack.get('/docs/?key=abc', noKey);
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe('/docs?key=abc');
  });

  it('serves the allow-list only: an unknown asset or a traversal is unserved (401 without a key, plain-text 404 with one)', async () => {
    const probes = [
      '/docs/nope.js', '/docs/index.html', `${VENDOR}/swagger-ui-bundle.js.map`, `${VENDOR}/index.html`, '/docs/vendor/0.0.0/swagger-ui.css',
      '/docs/..%2f..%2fpackage.json', '/docs/../package.json', '/docs/%2e%2e/%2e%2e/package.json', `${VENDOR}/..%2f..%2f..%2fpackage.json`,
      '/docs/vendor/..%2f..%2fnode_modules%2fswagger-ui-dist%2fpackage.json',
    ];
    for (const url of probes) {
      const anonymous = await stack.get(url, noKey);
      expect(anonymous.status, url).toBe(401);
      expect(anonymous.body.code, url).toBe('unauthorized');
      const keyed = await stack.get(url);
      expect(keyed.status, url).toBe(404);
      expect(keyed.headers['content-type'], url).toMatch(/^text\/plain/);
      expect(keyed.text, url).toBe('Not Found');
    }
  });

  it('is never metered, while the /openapi.json the page reads is a call', async () => {
    const before = await callsOf(stack);
    for (const url of ['/docs', '/docs/docs.js', `${VENDOR}/swagger-ui-bundle.js`, '/docs/']) {
      expect((await stack.get(`${url}?key=${stack.key}`, noKey)).status).toBeLessThan(400);
    }
    expect(await callsOf(stack)).toEqual(before);
    expect((await stack.get('/openapi.json', { key: null, headers: { 'x-api-key': stack.key } })).status).toBe(200);
    const after = await callsOf(stack);
    expect(Object.values(after).reduce((a, b) => a + b, 0)).toBe(Object.values(before).reduce((a, b) => a + b, 0) + 1);
  });

  it('stays out of the OpenAPI document, which declares the headerKey scheme the page authorizes', async () => {
    const doc = (await stack.get('/openapi.json')).body;
    expect(Object.keys(doc.paths).filter((p) => p === '/docs' || p.startsWith('/docs/'))).toEqual([]);
    expect(doc.components.securitySchemes.headerKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('never writes the key of the page URL into a log line', async () => {
    const secret = stack.key;
    expect((await stack.get(`/docs?key=${secret}`, noKey)).status).toBe(200);
    let line: string | undefined;
    for (let i = 0; i < 200 && line === undefined; i += 1) {
      line = log.split('\n').find((l) => l.includes('"url":"/docs?key='));
      if (line === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(line).toContain('"url":"/docs?key=[redacted]"');
    expect(log).not.toContain(secret);
  });
});

async function callsOf(stack: ApiStack): Promise<Record<string, number>> {
  await stack.server!.app.meterJournal!.flush();
  const { rows } = await stack.pool.query<{ family: string; calls: number }>(
    'SELECT family, sum(calls)::int AS calls FROM usage_daily GROUP BY family',
  );
  return Object.fromEntries(rows.map((r) => [r.family, r.calls]));
}
