import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../api/server.ts';
import { launchChromium, watchPage, type BrowserSession, type PageWatch } from '../support/browser.ts';
import { ApiStack } from '../support/api-stack.ts';
import { freePort } from '../support/free-port.ts';
import { repoPath } from '../support/paths.ts';

/** Generous: Swagger UI renders a 290 KB document with a hundred operations on two shared CPU cores. */
const RENDER_TIMEOUT_MS = 60_000;

type Doc = { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };


describe('the API docs page in headless Chromium', () => {
  let stack: ApiStack;
  let url: string;
  let browser: BrowserSession;
  let doc: Doc;

  beforeAll(async () => {
    stack = await ApiStack.create('api_docs_page');
    // A catalog release, so "Try it out" on GET /layers has something to answer with.
    await stack.enable(await stack.build(repoPath('samples/catalog/demo.catalog.json')));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    stack.server = await startServer({ ...stack.env.config, host: '127.0.0.1', port, baseUrl: url }, { logger: false });
    doc = (await stack.get('/openapi.json')).body as Doc;
    browser = await launchChromium({ width: 1280, height: 900 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function open(address: string): Promise<{ page: Page; watch: PageWatch }> {
    const page = await browser.newPage();
    const watch = watchPage(page, url);
    await page.goto(address);
    return { page, watch };
  }

  const state = (page: Page) => page.evaluate(() => document.body.dataset.docs ?? '');
  const operation = (page: Page, method: string, path: string) =>
    page.locator(`.opblock.opblock-${method}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });

  it('with ?key= lists every operation of every domain and every schema, and "Try it out" answers 200 with the key', async () => {
    const { page, watch } = await open(`${url}/docs?key=${stack.key}`);
    await expect.poll(() => state(page), { timeout: RENDER_TIMEOUT_MS }).toBe('ready');
    await page.locator('.opblock').first().waitFor({ timeout: RENDER_TIMEOUT_MS });

    const documented = Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m} ${p}`)).sort();
    const listed = await page.locator('.opblock').evaluateAll((blocks) => blocks.map((block) => {
      const method = block.querySelector('.opblock-summary-method')?.textContent?.toLowerCase();
      return `${method} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`;
    }));
    // An operation with two tags is listed under each.
    expect([...new Set(listed)].sort()).toEqual(documented);
    for (const [method, path] of [['get', '/geocode/search'], ['get', '/transit/agencies'], ['post', '/optimize'], ['get', '/layers']] as const) {
      expect(await operation(page, method, path).count(), `${method} ${path}`).toBe(1);
    }
    // The Schemas section lists every shared component.
    const schemas = page.locator('section.models article[data-json-schema-level="0"]');
    const titles = await schemas.evaluateAll((articles) => articles.map((a) => a.querySelector('.json-schema-2020-12__title')?.textContent));
    expect(titles.sort()).toEqual(Object.keys(doc.components.schemas).sort());
    // Opened, a schema shows its properties.
    const error = schemas.filter({ has: page.locator('.json-schema-2020-12__title', { hasText: /^Error$/ }) });
    await error.locator('.json-schema-2020-12-accordion').first().click();
    await expect.poll(() => error.locator('.json-schema-2020-12-property .json-schema-2020-12__title').allTextContents()).toContain('error');

    // Expanded, an operation shows its parameters, and its answers with their example.
    const search = operation(page, 'get', '/geocode/search');
    await search.locator('.opblock-summary-control').click();
    const parameterNames = await search.locator('.parameters .parameter__name').allTextContents();
    const searchOp = doc.paths['/geocode/search']!.get as { parameters: { name: string; required?: boolean }[] };
    expect(parameterNames.map((n) => n.replace(/\s+/g, ' ').trim())).toEqual(searchOp.parameters.map((p) => (p.required === true ? `${p.name} *` : p.name)));
    await expect.poll(() => search.locator('.responses-table .response[data-code="200"]').count()).toBe(1);
    const searchExample = (doc.paths['/geocode/search']!.get as { responses: Record<string, { content: Record<string, { example: unknown }> }> })
      .responses['200']!.content['application/json']!.example;
    const shownExample = await search.locator('.responses-table .response[data-code="200"] .highlight-code pre').first().textContent();
    expect(JSON.parse(shownExample!)).toEqual(searchExample);

    // Try it out: the page pre-authorized headerKey, so the call carries X-API-Key and answers 200.
    const layers = operation(page, 'get', '/layers');
    await layers.locator('.opblock-summary-control').click();
    await layers.locator('.try-out__btn').click();
    const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/layers');
    await layers.locator('.execute').click();
    expect((await sent).headers()['x-api-key']).toBe(stack.key);
    const status = layers.locator('.live-responses-table .response .response-col_status').first();
    await expect.poll(() => status.textContent(), { timeout: RENDER_TIMEOUT_MS }).toMatch(/^\s*200/);
    const shown = await layers.locator('.live-responses-table .response-col_description .highlight-code pre').first().textContent();
    expect(JSON.parse(shown!)).toEqual((await stack.get('/layers')).body);

    expect(watch.failures).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    // Only the page's own origin answered it: the document, the page's files and the call.
    expect(watch.answered.map((a) => a.path)).toEqual(expect.arrayContaining(['/docs', '/openapi.json', '/layers']));
    await page.close();
  }, 180_000);

  it('without a key asks for one, says why a wrong key is refused, and opens the reference with the key typed in', async () => {
    const { page, watch } = await open(`${url}/docs`);
    await expect.poll(() => state(page)).toBe('key-needed');
    expect(await page.locator('#key-form').isVisible()).toBe(true);
    expect(watch.answered.filter((a) => a.path === '/openapi.json')).toEqual([]);

    await page.fill('#key-input', 'not-a-key');
    await page.click('#key-form button');
    await expect.poll(() => state(page)).toBe('refused');
    expect(await page.locator('#key-status').textContent()).toBe('401 invalid or disabled API key');

    await page.fill('#key-input', stack.key);
    await page.click('#key-form button');
    await expect.poll(() => state(page), { timeout: RENDER_TIMEOUT_MS }).toBe('ready');
    expect(await page.locator('#key-form').isVisible()).toBe(false);
    expect(await operation(page, 'get', '/transit/agencies').count()).toBe(1);
    // The key typed in stays out of the address bar.
    expect(new URL(page.url()).searchParams.get('key')).toBeNull();
    // Swagger UI's Authorize shows the scheme as authorized.
    await page.locator('.auth-wrapper .authorize').click();
    const schemes = page.locator('.modal-ux .auth-container');
    await expect.poll(() => schemes.count()).toBe(3);
    const authorized = await schemes.evaluateAll((containers) => containers
      .filter((c) => c.querySelector('h6')?.textContent === 'Authorized').map((c) => c.querySelector('h4 code')?.textContent));
    expect(authorized).toEqual(['headerKey']);

    expect(watch.pageErrors).toEqual([]);
    expect(watch.consoleErrors.filter((e) => !e.includes('401'))).toEqual([]);
    await page.close();
  }, 180_000);
});
