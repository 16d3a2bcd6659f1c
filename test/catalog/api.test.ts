import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { dlsCell, dlsCellAt, type DlsLevel } from '../../engines/survey/dls.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiStack } from '../support/api-stack.ts';
import { repoPath } from '../support/paths.ts';
import { tileContaining } from '../../engines/tiles/tile-feature.ts';


const decode = (gzipped: Buffer) => new VectorTile(new PbfReader(new Uint8Array(gunzipSync(gzipped))));

describe('catalog API over the demo catalog (layers, overlay tiles, identify, data/query)', () => {
  let stack: ApiStack;
  let releaseId = '';

  beforeAll(async () => {
    const serving = await ApiStack.serving('catalog_api', repoPath('samples/catalog/demo.catalog.json'));
    stack = serving.stack;
    releaseId = serving.release.id;
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  describe('GET /layers and /layers/{id}', () => {
    it('lists every row with the fields of volume 3 and no storage paths', async () => {
      const { status, body, text } = await stack.get('/layers');
      expect(status).toBe(200);
      expect(body.map((r: { id: string }) => r.id)).toEqual([
        'municipalities', 'parks', 'aboriginal-lands', 'survey.dls', 'survey.nts', 'survey.parcels', 'energy.wells', 'energy.mineral-tenure', 'remote.airports',
      ]);
      for (const row of body) {
        expect(Object.keys(row)).toEqual(expect.arrayContaining([
          'id', 'display_name', 'namespace', 'source', 'source_url', 'licence', 'attribution', 'coverage', 'resolution', 'source_updated_at',
          'freshness_policy', 'known_gaps', 'updated_at', 'ingestion_version', 'schema_version', 'addon', 'archives', 'source_layer',
        ]));
        expect(row.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      expect(text).not.toMatch(/pmtiles|\.features|releases/);
      const nts = body.find((r: { id: string }) => r.id === 'survey.nts');
      expect(nts.addon).toBe('legal-land');
      expect(nts.archives).toEqual([{ id: 'survey.nts', minzoom: 0, maxzoom: 14 }]);
      expect(nts.source_layers.map((s: { id: string }) => s.id)).toEqual(['nts_series', 'nts_map_area', 'nts_sheet', 'nts_block']);
      const municipalities = body.find((r: { id: string }) => r.id === 'municipalities');
      expect(municipalities).toMatchObject({ addon: 'core', source_layer: 'municipalities', archives: [{ id: 'municipalities', minzoom: 4, maxzoom: 14 }] });
      expect(municipalities.source_layers).toBeUndefined();
    });

    it('answers one row, 404 for an unknown id and 410 naming the replacement for retired ones', async () => {
      expect((await stack.get('/layers/survey.parcels')).body).toMatchObject({ id: 'survey.parcels', addon: 'agriculture' });
      expect(await stack.get('/layers/nope')).toMatchObject({ status: 404, body: { error: 'unknown layer "nope"' } });
      for (const id of ['water', 'rail', 'remote.roads']) {
        const { status, body } = await stack.get(`/layers/${id}`);
        expect(status).toBe(410);
        expect(body.error).toMatch(new RegExp(`^layer ${id.replace('.', '\\.')} is retired; use the basemap`));
      }
    });
  });

  describe('GET /layers/{id}/{z}/{x}/{y}', () => {
    it('serves the stored gzip tile with its ETag and cache policy, and 304 when current', async () => {
      const [x, y] = tileContaining(-114.07, 51.05, 10);
      const answer = await stack.getBytes(`/layers/municipalities/10/${x}/${y}.pbf`, { 'accept-encoding': 'gzip, br' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/x-protobuf');
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers['cache-control']).toBe('public, max-age=86400');
      expect(answer.headers.etag).toBe(`"${releaseId}"`);
      const layer = decode(answer.body).layers.municipalities!;
      expect(layer.length).toBe(1);
      expect(layer.feature(0).properties).toMatchObject({ id: 'sample-calgary', name: 'Calgary', province: 'AB' });
      const again = await stack.getBytes(`/layers/municipalities/10/${x}/${y}`, { 'if-none-match': `"${releaseId}"` });
      expect(again.status).toBe(304);
      // RFC 9110: If-None-Match compares weakly, and * matches any current tile.
      for (const tag of [`W/"${releaseId}"`, '*', `"other", W/"${releaseId}"`]) {
        expect((await stack.getBytes(`/layers/municipalities/10/${x}/${y}`, { 'if-none-match': tag })).status).toBe(304);
      }
      expect((await stack.getBytes(`/layers/municipalities/10/${x}/${y}`, { 'if-none-match': 'W/"other"' })).status).toBe(200);
      const plain = await stack.getBytes(`/layers/municipalities/10/${x}/${y}.mvt`, { 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(gunzipSync(answer.body))).toBe(true);
    });

    it('answers 204 outside the zoom band or where there is no tile', async () => {
      const [x, y] = tileContaining(-114.07, 51.05, 3);
      expect((await stack.getBytes(`/layers/municipalities/3/${x}/${y}`)).status).toBe(204);
      expect((await stack.getBytes('/layers/municipalities/10/0/0')).status).toBe(204);
      expect((await stack.getBytes('/layers/municipalities/15/0/0')).status).toBe(204);
      expect((await stack.getBytes('/layers/municipalities/40/0/0')).status).toBe(204);
    });

    it('answers the plain-text errors of a tile route', async () => {
      for (const url of ['/layers/municipalities/a/0/0', '/layers/municipalities/1/2/0', '/layers/municipalities/1/0/-1', '/layers/municipalities/1/0/0.png']) {
        const answer = await stack.get(url);
        expect({ url, status: answer.status, text: answer.text }).toEqual({ url, status: 400, text: 'invalid tile coordinates' });
      }
      expect(await stack.get('/layers/nope/1/0/0')).toMatchObject({ status: 404, text: 'unknown layer nope' });
      expect(await stack.get('/layers/water/1/0/0')).toMatchObject({ status: 410, text: expect.stringMatching(/^layer water is retired/) });
    });

    it('carries every source layer of a stacked archive within its own zoom band', async () => {
      const [x6, y6] = tileContaining(-114.5, 50.9, 6);
      const low = decode((await stack.getBytes(`/layers/survey.nts/6/${x6}/${y6}`)).body);
      expect(Object.keys(low.layers).sort()).toEqual(['nts_map_area', 'nts_series', 'nts_sheet']);
      const [x10, y10] = tileContaining(-114.5, 50.9, 10);
      const high = decode((await stack.getBytes(`/layers/survey.nts/10/${x10}/${y10}`)).body);
      expect(Object.keys(high.layers).sort()).toEqual(['nts_block', 'nts_sheet']);
      expect(high.layers.nts_sheet!.feature(0).properties.survey_system).toBe('NTS');
    });

    it('draws the DLS grid from the survey model: townships when zoomed out, LSDs and quarters with their labels close in', async () => {
      const [x6, y6] = tileContaining(-114.07, 51.05, 6);
      const low = decode((await stack.getBytes(`/layers/survey.dls/6/${x6}/${y6}`)).body);
      expect(Object.keys(low.layers)).toEqual(['dls_township']);
      const [x14, y14] = tileContaining(-114.07, 51.05, 14);
      const high = decode((await stack.getBytes(`/layers/survey.dls/14/${x14}/${y14}`)).body);
      expect(Object.keys(high.layers).sort()).toEqual(['dls_lsd', 'dls_lsd_label', 'dls_quarter', 'dls_quarter_label']);
      const lsd = high.layers.dls_lsd!.feature(0).properties;
      expect(lsd).toMatchObject({ survey_system: 'DLS', level: 'lsd', meridian: 'W5' });
      expect(dlsCell({ level: 'lsd', meridian: 'W5', range: Number(lsd.range), township: Number(lsd.township), section: Number(lsd.section), lsd: Number(lsd.lsd) }).id).toBe(lsd.unit);
      expect(high.layers.dls_lsd_label!.feature(0).type).toBe(1); // points
    });
  });

  describe('add-on gating (the access table)', () => {
    it('refuses a paid key without the add-on on tiles, identify and query, and serves it with the add-on', async () => {
      const without = await stack.createKey({ plan: 'indie', addons: [] });
      const withAddons = await stack.createKey({ plan: 'indie', addons: ['legal-land', 'energy'] });
      const [x, y] = tileContaining(-114.5, 50.9, 6);
      for (const url of [`/layers/survey.nts/6/${x}/${y}`, '/identify?at=-114.5,50.9&layers=municipalities,survey.nts', '/data/query?layer=energy.wells&bbox=-115,52,-114,53']) {
        const refused = await stack.get(url, { key: without });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ code: 'addon_required' });
        expect((await stack.get(url, { key: withAddons })).status).toBe(200);
      }
      expect((await stack.get('/identify?at=-114.07,51.05', { key: without })).status).toBe(200);
    });
  });

  describe('GET /identify', () => {
    const names = async (query: string) => ((await stack.get(`/identify?${query}`)).body.results as { id: string }[]).map((r) => r.id);

    it('finds the polygons containing a point: inside, in a hole, on an edge, across a multipolygon, outside', async () => {
      expect(await names('at=-73.70,45.55')).toEqual(['sample-montreal']);
      expect(await names('at=-73.60,45.485')).toEqual(['sample-westmount']);
      expect(await names('at=-73.62,45.485')).toEqual(['sample-montreal', 'sample-westmount']);
      expect(await names('lon=-61.85&lat=47.60')).toEqual(['sample-les-iles']);
      expect(await names('at=-61.80,47.50')).toEqual([]);
    });

    it('answers {at, results} with the result fields, and polygons with geometry=true', async () => {
      const { status, body } = await stack.get('/identify?at=-114.07,51.05&layers=municipalities,energy.mineral-tenure');
      expect(status).toBe(200);
      expect(body).toEqual({ at: [-114.07, 51.05], results: [{ layer: 'municipalities', id: 'sample-calgary', name: 'Calgary', province: 'AB', name_fr: 'Calgary', csd_type: 'CY' }] });
      const withGeometry = await stack.get('/identify?at=-114.07,51.05&geometry=true');
      expect(withGeometry.body.results[0].geometry.type).toBe('Polygon');
      const cells = await stack.get('/identify?at=-114.45,50.9&layers=survey.nts');
      expect(cells.body.results.map((r: { level: string }) => r.level)).toEqual(['series', 'map_area', 'sheet', 'block']);
      expect(cells.body.results[2]).toMatchObject({ layer: 'survey.nts', id: '082J16', survey_system: 'NTS', province: 'AB' });
      const dls = await stack.get('/identify?at=-114.07,51.05&layers=survey.dls');
      const polygons = (dls.body.results as { id: string; level: string }[]).filter((r) => r.id === dlsCellAt(-114.07, 51.05, r.level as DlsLevel)?.id);
      expect(polygons.map((r) => r.level).sort()).toEqual(['lsd', 'quarter', 'section', 'township']);
    });

    it('answers 400 naming what is wrong', async () => {
      const error = async (query: string) => (await stack.get(`/identify${query}`)).body;
      expect(await error('')).toEqual({ error: 'at is required (lng,lat), or give lon and lat' });
      expect(await error('?at=abc')).toEqual({ error: expect.stringMatching(/^at must be lng,lat/) });
      expect(await error('?at=-200,45')).toEqual({ error: expect.stringMatching(/^longitude must be between -180 and 180/) });
      expect(await error('?lon=-73')).toEqual({ error: 'lat is required with lon (or give at=lng,lat)' });
      expect(await error('?at=-73,45&layers=nope')).toEqual({ error: expect.stringMatching(/^unknown layer "nope"; identify-capable layers: municipalities, survey\.dls, survey\.nts/) });
      expect(await error('?at=-73,45&layers=parks')).toEqual({ error: expect.stringMatching(/^layer parks is not identify-capable/) });
    });
  });

  describe('GET /data/query', () => {
    it('answers {layer, bbox, results} filtered exactly by the box, up to limit', async () => {
      // The sample's Pembina-area wells (samples/energy, by way of samples/catalog/make-record-layers.ts).
      const { status, body } = await stack.get('/data/query?layer=energy.wells&bbox=-115,52,-114,54');
      expect(status).toBe(200);
      expect(body.layer).toBe('energy.wells');
      expect(body.bbox).toEqual([-115, 52, -114, 54]);
      expect(body.results).toHaveLength(6);
      expect(body.results[0]).toMatchObject({ layer: 'energy.wells', province: 'AB', uwi: expect.stringMatching(/^10\d\/\d\d-\d\d-0\d\d-0\dW5\/0\d$/), operator: expect.any(String), status: expect.any(String) });
      expect(body.results[0].geometry).toBeUndefined();
      expect((await stack.get('/data/query?layer=energy.wells&bbox=-115,52,-114,54&limit=5')).body.results).toHaveLength(5);
      expect((await stack.get('/data/query?layer=energy.wells&bbox=-115,52,-114,54&limit=many')).body.results).toHaveLength(6);
      // A box inside Westmount, Montréal's hole: Montréal's bbox meets it, its geometry does not.
      const hole = await stack.get('/data/query?layer=municipalities&bbox=-73.61,45.48,-73.60,45.49&geometry=true');
      expect(hole.body.results.map((r: { id: string }) => r.id)).toEqual(['sample-westmount']);
      expect(hole.body.results[0].geometry.type).toBe('Polygon');
    });

    it('answers 400, and 501 for a tile-only layer listing the queryable ones', async () => {
      const answer = async (query: string) => { const a = await stack.get(`/data/query${query}`); return { status: a.status, body: a.body }; };
      expect(await answer('?bbox=0,0,1,1')).toEqual({ status: 400, body: { error: expect.stringMatching(/^layer is required: one of municipalities, /) } });
      expect(await answer('?layer=nope&bbox=0,0,1,1')).toEqual({ status: 400, body: { error: expect.stringMatching(/^unknown layer "nope"; queryable layers: /) } });
      expect(await answer('?layer=parks&bbox=0,0,1,1')).toEqual({
        status: 501, body: { error: 'layer parks is tile-only; queryable layers: municipalities, survey.dls, survey.nts, survey.parcels, energy.wells, energy.mineral-tenure, remote.airports' },
      });
      expect(await answer('?layer=municipalities')).toEqual({ status: 400, body: { error: 'bbox is required (west,south,east,north)' } });
      expect(await answer('?layer=municipalities&bbox=1,2,3')).toEqual({ status: 400, body: { error: expect.stringMatching(/^bbox must be west,south,east,north/) } });
      expect(await answer('?layer=municipalities&bbox=0,0,1,1&limit=0')).toEqual({ status: 400, body: { error: 'limit must be an integer between 1 and 50' } });
      expect(await answer('?layer=municipalities&bbox=0,0,1,1&limit=51')).toEqual({ status: 400, body: { error: 'limit must be an integer between 1 and 50' } });
    });
  });
});
