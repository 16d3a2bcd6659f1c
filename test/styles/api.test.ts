import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiStack } from '../support/api-stack.ts';
import { repoPath } from '../support/paths.ts';

describe('GET /styles/{style}.json through the API', () => {
  let stack: ApiStack;

  beforeAll(async () => {
    ({ stack } = await ApiStack.serving('styles_api', repoPath('samples/catalog/demo.catalog.json')));
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('answers a valid style whose tile, glyph and sprite URLs carry the caller\'s key, never edge-cached', async () => {
    const { status, body, headers } = await stack.get(`/styles/base-dark.json?key=${stack.key}`, { key: null });
    expect(status).toBe(200);
    expect(headers['cache-control']).toBe('no-store');
    expect(validateStyleMin(body)).toEqual([]);
    expect(body.sources.svc.tiles).toEqual([`http://api.canmap.test/tiles/{z}/{x}/{y}?key=${stack.key}`]);
    expect(body.glyphs).toBe(`http://api.canmap.test/glyphs/2/{fontstack}/{range}.pbf?key=${stack.key}`);
    expect(body.metadata?.['svc:theme']).toBeUndefined();
  });

  it('adds catalog overlays with their source layers, drops retired ones and refuses unknown ones', async () => {
    const { body } = await stack.get('/styles/base.json?overlays=survey.nts,water');
    expect(validateStyleMin(body)).toEqual([]);
    const overlaySources = Object.entries(body.sources as Record<string, { tiles?: string[] }>).filter(([id]) => id !== 'svc');
    expect(overlaySources.map(([, s]) => s.tiles?.[0])).toEqual([`http://api.canmap.test/layers/survey.nts/{z}/{x}/{y}?key=${stack.key}`]);
    const sourceLayers = new Set((body.layers as { 'source-layer'?: string }[]).map((l) => l['source-layer']).filter(Boolean));
    for (const id of ['nts_series', 'nts_map_area', 'nts_sheet', 'nts_block']) expect(sourceLayers.has(id)).toBe(true);
    expect(await stack.get('/styles/base.json?overlays=nope')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/nope/) } });
    expect(await stack.get('/styles/base.json?overlays=byod:0123456789abcdef01234567')).toMatchObject({ status: 404, body: { error: 'overlay byod:0123456789abcdef01234567 not found' } });
  });

  it('answers 404 listing the style names, and 400 invalid_theme with the detail of volume 1', async () => {
    for (const url of ['/styles/pixel-art.json', '/styles/nope.json', '/styles/base']) {
      const { status, body } = await stack.get(url);
      expect(status).toBe(404);
      expect(body.error).toBe('unknown style');
      expect(body.styles).toEqual(expect.arrayContaining(['base-light', 'base-dark', 'pastel-dark', 'calgary']));
    }
    const bad = await stack.get('/styles/base.json?theme=zz');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid theme', code: 'invalid_theme', detail: expect.arrayContaining(['code must start with "ut1." or be a short preset']) });
    const garbled = await stack.get('/styles/base.json?theme=ut1.%21%21%21');
    expect(garbled.body.detail).toContain('code is not valid base64url deflate data');
  });

  it('labels in French from lang or Accept-Language', async () => {
    const fr = (await stack.get('/styles/base.json', { headers: { 'accept-language': 'fr-CA,fr;q=0.9' } })).body;
    expect(JSON.stringify(fr.layers)).toContain('name:fr');
    expect(JSON.stringify((await stack.get('/styles/base.json?lang=en')).body.layers)).not.toContain('name:fr');
  });
});
