import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeThemeCode } from '../../engines/styles/theme-code.ts';
import { LAYER_GROUPS } from '../../engines/styles/theme-schema.ts';
import { launchChromium, watchPage, type BrowserSession, type PageWatch } from '../support/browser.ts';
import { MapStack } from './map-stack.ts';
import { looksDrawn, pixelStats, type PixelStats } from './pixels.ts';

/** Generous: SwiftShader draws on two CPU cores, and a first tile pass at city zoom takes a while. */
const IDLE_TIMEOUT_MS = 90_000;

type Outcome = { ok: true } | { ok: false; error: string };

interface Visit {
  page: Page;
  watch: PageWatch;
  outcome: Outcome;
}

describe('the map page in headless Chromium', () => {
  let stack: MapStack;
  let browser: BrowserSession;

  beforeAll(async () => {
    stack = await MapStack.start('map_page');
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** Opens the page, then waits for the outcome of its style: the map's idle, or the style's failure. */
  async function visit(url: string): Promise<Visit> {
    const page = await browser.newPage();
    const watch = watchPage(page, stack.url);
    await page.goto(url);
    return { page, watch, outcome: await currentStyle(page) };
  }

  function currentStyle(page: Page): Promise<Outcome> {
    return page.evaluate((ms) => Promise.race([
      (window as unknown as { __canmap: { ready: Promise<Outcome> } }).__canmap.ready,
      new Promise<Outcome>((resolve) => setTimeout(() => resolve({ ok: false, error: `no idle within ${ms} ms` }), ms)),
    ]), IDLE_TIMEOUT_MS);
  }

  async function mapScreenshot(page: Page): Promise<PixelStats> {
    // The map's own pixels: the zoom buttons, scale and attribution would count as colours.
    await page.addStyleTag({ content: '.maplibregl-control-container { display: none !important; }' });
    return pixelStats(await page.locator('#map').screenshot());
  }

  const mapErrors = (page: Page) => page.evaluate(() => (window as unknown as { __canmap: { mapErrors: string[] } }).__canmap.mapErrors);

  it('without a key shows the key form, and opens the map with the key typed in', async () => {
    const page = await browser.newPage();
    const watch = watchPage(page, stack.url);
    await page.goto(`${stack.url}/map/`);
    await expect.poll(() => page.locator('#key-form').isVisible()).toBe(true);
    expect(await page.locator('#controls').isVisible()).toBe(false);
    expect(watch.answered.filter((a) => a.path.startsWith('/styles/'))).toEqual([]);
    await page.fill('#key-input', stack.key);
    await Promise.all([page.waitForURL(/\/map\/\?key=/), page.click('#key-form button')]);
    expect(new URL(page.url()).searchParams.get('key')).toBe(stack.key);
    expect(new URL(page.url()).searchParams.get('style')).toBe('base-light');
    expect(await page.locator('#style-url').inputValue()).toBe(`${stack.url}/styles/base-light.json?key=${stack.key}`);
    expect(await currentStyle(page)).toEqual({ ok: true });
    await page.close();
  }, 120_000);

  it('says why when the key is refused or the theme code is bad, and the watcher sees the failed style request', async () => {
    const refused = await visit(`${stack.url}/map/?key=not-a-key`);
    expect(refused.outcome).toEqual({ ok: false, error: '401 invalid or disabled API key' });
    expect(await refused.page.locator('#status').textContent()).toBe('style: 401 invalid or disabled API key');
    expect(refused.watch.failures).toEqual(expect.arrayContaining(['401 /styles/base-light.json', '401 /layers']));
    expect(await refused.page.locator('#overlay-list').textContent()).toContain('overlays unavailable: 401 invalid or disabled API key');
    await refused.page.close();

    const badTheme = await visit(stack.pageUrl({ theme: 'zz' }));
    expect(badTheme.outcome).toEqual({ ok: false, error: '400 invalid theme: code must start with "ut1." or be a short preset' });
    expect(badTheme.watch.failures).toContain('400 /styles/base-light.json');
    await badTheme.page.close();
  }, 120_000);

  it('loads the style from the API with the key, centred on Vancouver, and lists the catalog layers that have tiles', async () => {
    const { page, watch, outcome } = await visit(stack.pageUrl());
    expect(outcome).toEqual({ ok: true });
    expect(watch.answered).toContainEqual({ path: '/styles/base-light.json', status: 200 });
    const view = await page.evaluate(() => {
      const map = (window as unknown as { __canmap: { map: { getZoom(): number; getCenter(): { lng: number; lat: number }; isStyleLoaded(): boolean } } }).__canmap.map;
      return { zoom: map.getZoom(), ...map.getCenter(), styleLoaded: map.isStyleLoaded() };
    });
    expect(view).toEqual({ zoom: 11, lng: expect.closeTo(-123.12, 4), lat: expect.closeTo(49.28, 4), styleLoaded: true });
    expect(await page.locator('#view').textContent()).toBe('zoom 11.00 · centre -123.1200, 49.2800');

    const rows = (await stack.api.get('/layers')).body as { id: string; archives: unknown[] }[];
    const tiled = rows.filter((r) => r.archives.length > 0).map((r) => r.id);
    expect(tiled.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#overlay-list input').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value))).toEqual(tiled);

    expect(watch.failures).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    await page.close();
  }, 120_000);

  it('reloads the style with overlays= when an overlay is ticked, and with the picked style', async () => {
    const { page, watch } = await visit(stack.pageUrl());
    await page.locator('#overlay-list input[value="municipalities"]').check();
    expect(await currentStyle(page)).toEqual({ ok: true });
    expect(new URL(page.url()).searchParams.get('overlays')).toBe('municipalities');
    expect(await page.locator('#style-url').inputValue()).toBe(`${stack.url}/styles/base-light.json?key=${stack.key}&overlays=municipalities`);
    const overlayTiles = watch.answered.filter((a) => a.path.startsWith('/layers/municipalities/'));
    expect(overlayTiles.length).toBeGreaterThan(0);
    expect(overlayTiles.every((a) => a.status === 200 || a.status === 204)).toBe(true);

    await page.selectOption('#style-select', 'pastel-dark');
    expect(await currentStyle(page)).toEqual({ ok: true });
    expect(watch.answered).toContainEqual({ path: '/styles/pastel-dark.json', status: 200 });
    expect(new URL(page.url()).searchParams.get('style')).toBe('pastel-dark');
    await page.close();
  }, 120_000);

  it('draws: a view with nothing drawn is judged blank, a catalog overlay over it is not uniform', async () => {
    // Every layer group hidden: no basemap layer is left, whatever the basemap release.
    const nothing = encodeThemeCode({ hidden: [...LAYER_GROUPS] });
    const blank = await visit(stack.pageUrl({ theme: nothing }));
    expect(blank.outcome).toEqual({ ok: true });
    const blankStats = await mapScreenshot(blank.page);
    expect(blankStats.distinctColours).toBe(1);
    expect(looksDrawn(blankStats)).toBe(false);
    await blank.page.close();

    const overlay = await visit(stack.pageUrl({ theme: nothing, overlays: 'municipalities' }));
    expect(overlay.outcome).toEqual({ ok: true });
    expect(overlay.watch.answered.some((a) => a.path.startsWith('/layers/municipalities/') && a.status === 200)).toBe(true);
    const stats = await mapScreenshot(overlay.page);
    expect(stats.distinctColours).toBeGreaterThan(1);
    expect(stats.dominantShare).toBeLessThan(0.99);
    await overlay.page.close();
  }, 180_000);

  /** `view` (the page's #zoom/lat/lng) where the view is not the page's Vancouver start: the demo DEM covers 48–48.5°N. */
  const RENDERS: { name: string; query: Record<string, string>; view?: string; requests: RegExp[] }[] = [
    { name: 'base-light', query: { style: 'base-light' }, requests: [/^\/tiles\//, /^\/glyphs\//, /^\/sprite\//] },
    { name: 'base-dark', query: { style: 'base-dark' }, requests: [/^\/tiles\//, /^\/glyphs\//, /^\/sprite\//] },
    {
      name: 'outdoor-light with 3D terrain', query: { style: 'outdoor-light', terrain: '1' }, view: '9/48.35/-124.35',
      requests: [/^\/tiles\//, /^\/glyphs\//, /^\/terrain\/4\//, /^\/contours\/4\//],
    },
    {
      name: 'theme u2 (night drive) with the municipalities overlay', query: { style: 'base-light', theme: 'u2', overlays: 'municipalities' },
      requests: [/^\/tiles\//, /^\/glyphs\//, /^\/sprite\/2\/dark/, /^\/layers\/municipalities\//],
    },
  ];

  for (const render of RENDERS) {
    it(`renders ${render.name} with no failed request or console error`, async () => {
      const { page, watch, outcome } = await visit(stack.pageUrl(render.query) + (render.view ? `#${render.view}` : ''));
      expect(outcome).toEqual({ ok: true });
      expect(watch.failures).toEqual([]);
      expect(watch.consoleErrors).toEqual([]);
      expect(watch.pageErrors).toEqual([]);
      expect(await mapErrors(page)).toEqual([]);
      for (const wanted of render.requests) {
        expect(watch.answered.some((a) => wanted.test(a.path) && a.status === 200), `a 200 for ${wanted}`).toBe(true);
      }
      if (render.query.terrain) expect(await page.evaluate(() => (window as unknown as { __canmap: { map: { getTerrain(): unknown } } }).__canmap.map.getTerrain())).not.toBeNull();
      const stats = await mapScreenshot(page);
      expect(looksDrawn(stats), JSON.stringify(stats)).toBe(true);
      await page.close();
    }, 180_000);
  }
});
