import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareEnergyRelease } from '../../ingest/energy/release.ts';
import { prepareParcelsRelease } from '../../ingest/parcels/release.ts';
import { ENERGY_KIND } from '../../schemas/energy-release.ts';
import { PARCELS_KIND } from '../../schemas/parcels-release.ts';
import { dlsCellAt } from '../../engines/survey/dls.ts';
import { GeocodingApiStack } from '../support/geocoding-api-stack.ts';
import { REPO_ROOT } from '../support/paths.ts';

/*
 * Well identifiers, parcel ids and the energy layers through the geocoding endpoints over HTTP,
 * against energy and parcel releases built from the bundled registry-form samples.
 */

interface Result {
  id: string; name: string; layer: string; lng: number; lat: number; score?: number; match_type: string; precision: string; source: string;
  uwi?: string; licence?: string; operator?: string; status?: string; pid?: string; bbox?: number[];
  geometry?: { type: string; coordinates: unknown[] }; address?: Record<string, string>; match_reasons?: string[];
}

const sample = (...parts: string[]) => path.join(REPO_ROOT, 'samples', ...parts);
let stack: GeocodingApiStack;
let energy: string;
let agriculture: string;
let indie: string;
const search = (params: Record<string, string>, key?: string) => stack.get(`/geocode/search?${new URLSearchParams(params)}`, { key: key ?? stack.key });

beforeAll(async () => {
  stack = await GeocodingApiStack.create('records_api');
  await stack.start();
  energy = await stack.createKey({ plan: 'growth', addons: ['energy'] });
  agriculture = await stack.createKey({ plan: 'growth', addons: ['agriculture'] });
  indie = await stack.createKey({ plan: 'indie' });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('without energy and parcel releases', () => {
  it('a UWI or PID query, past the access check, is 503 retryable; a bad part is still a 400', async () => {
    expect(await search({ q: '100/06-32-048-07W5/00' })).toMatchObject({ status: 503, body: { error: 'geocode temporarily unavailable', retryable: true } });
    expect(await search({ q: '012-345-678' })).toMatchObject({ status: 503 });
    expect((await search({ q: '100/06-37-048-07W5/00' })).status).toBe(400);
  });
});

describe('with energy and parcel releases built from the samples', () => {
  beforeAll(async () => {
    const wells = ['wells-ab-st37.csv', 'wells-sk-st37.csv', 'wells-bc.csv'].map((f) => sample('energy', f));
    const energyRelease = await stack.publishSpecAndEnable(await prepareEnergyRelease({ wells, facilities: [sample('energy', 'facilities-ab-st102.csv')] }));
    const parcelRelease = await stack.publishSpecAndEnable(await prepareParcelsRelease([sample('parcels', 'parcels-abbotsford.csv')]));
    await stack.waitForRelease(energyRelease.id, 30_000, ENERGY_KIND);
    await stack.waitForRelease(parcelRelease.id, 30_000, PARCELS_KIND);
  }, 120_000);

  it('a UWI in any form answers its well with the energy record fields', async () => {
    for (const q of ['100143608517W600', '100/14-36-085-17W6/00', '100/14-36-85-17W6/0']) {
      const res = await search({ q }, energy);
      expect(res.status, q).toBe(200);
      expect(res.body, q).toMatchObject([{
        layer: 'well', uwi: '100/14-36-085-17W6/00', name: 'SAMPLE MONTNEY 14-36-85-17', operator: 'NORTHSAMPLE GAS', status: 'ACTIVE',
        licence: '31001', match_type: 'exact', precision: 'point', score: 1, address: { region: 'BC', country: 'CA' },
      }]);
    }
    const [nts] = (await search({ q: '200D096H094A1500' }, energy)).body as Result[];
    expect(nts).toMatchObject({ layer: 'well', uwi: '200/D-096-H/094-A-15/00' });
  });

  it('a DLS well lies in the LSD its UWI names, by the survey model', async () => {
    const [well] = (await search({ q: '100/06-32-048-07W5/00' }, energy)).body as Result[];
    expect(dlsCellAt(well!.lng, well!.lat, 'lsd')?.id).toBe('06-32-048-07W5');
  });

  it('a well-formed UWI with no well is [], never a guess; a bad part is a 400 naming it', async () => {
    expect((await search({ q: '100/01-01-001-01W4/00' }, energy)).body).toEqual([]);
    const bad = await search({ q: '100/06-32-048-07W9/00' }, energy);
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toMatch(/^well identifier "100\/06-32-048-07W9\/00": .*meridian/i);
  });

  it('UWI and PID queries need their add-ons', async () => {
    expect(await search({ q: '100143608517W600' }, indie)).toMatchObject({ status: 403, body: { code: 'addon_required', capability: 'energy', addon: 'addon-energy' } });
    expect(await search({ q: '100143608517W600' }, agriculture)).toMatchObject({ status: 403, body: { capability: 'energy' } });
    expect(await search({ q: '009-123-000' }, energy)).toMatchObject({ status: 403, body: { code: 'addon_required', capability: 'agriculture', addon: 'addon-agriculture' } });
  });

  it('a PID answers its parcel: pid, bbox, interior point, polygon with geometry=true', async () => {
    for (const q of ['009-123-000', '009123000', 'PID: 009-123-000']) {
      const res = await search({ q }, agriculture);
      expect(res.status, q).toBe(200);
      expect(res.body, q).toMatchObject([{ layer: 'parcel', pid: '009-123-000', address: { city: 'City of Abbotsford', region: 'BC', country: 'CA' } }]);
      expect((res.body as Result[])[0]!.geometry).toBeUndefined();
    }
    const [parcel] = (await search({ q: '009-123-000', geometry: 'true' }, agriculture)).body as Result[];
    const [w, s, e, n] = parcel!.bbox!;
    expect(parcel!.lng > w! && parcel!.lng < e! && parcel!.lat > s! && parcel!.lat < n!).toBe(true);
    expect(parcel!.geometry!.type).toBe('Polygon');
    expect((await search({ q: '009-999-999' }, agriculture)).body).toEqual([]);
    const short = await search({ q: 'PID 1234' }, agriculture);
    expect(short.status).toBe(400);
    expect((short.body as { error: string }).error).toMatch(/^parcel id "PID 1234": /);
  });

  it('layers=well / facility search the energy corpus by name, licence or id; region and bbox filter it', async () => {
    const lewis = (await search({ q: 'suncor lewis', layers: 'well' }, energy)).body as Result[];
    expect(lewis[0]).toMatchObject({ layer: 'well', uwi: '1AA/07-22-092-08W4/00', name: 'SUNCOR LEWIS 7-22-92-8' });
    const plant = (await search({ q: 'Kaybob South', layers: 'facility' }, energy)).body as Result[];
    expect(plant[0]).toMatchObject({ layer: 'facility', name: 'SAMPLE KAYBOB SOUTH GAS PLANT', id: 'facility:ABGP0100011' });
    expect(plant[0]!.uwi).toBeUndefined();
    expect((await search({ q: 'ABGP0100011', layers: 'facility' }, energy)).body).toMatchObject([{ name: 'SAMPLE KAYBOB SOUTH GAS PLANT', score: 1 }]);
    expect((await search({ q: 'weyburn', layers: 'well', region: 'Alberta' }, energy)).body).toEqual([]);
    expect(((await search({ q: 'weyburn', layers: 'well', region: 'Saskatchewan' }, energy)).body as Result[]).length).toBeGreaterThan(0);
    expect((await search({ q: 'weyburn', layers: 'well', bbox: '-115,52,-114,53' }, energy)).body).toEqual([]);
    // A UWI with layers=facility: the well is not a facility.
    expect((await search({ q: '100143608517W600', layers: 'facility' }, energy)).body).toEqual([]);
  });

  it('batch routes each entry by its grammar', async () => {
    const founder = await stack.post('/geocode/batch', { queries: ['100143608517W600', '009-123-000', 'NW-25-24-1-W5', ' '] });
    expect(founder.status).toBe(200);
    expect((founder.body as Result[][]).map((slot) => slot.map((r) => r.layer))).toEqual([['well'], ['parcel'], ['legal_land'], []]);
    expect(founder.headers['x-billable-queries']).toBe('3');
  });
});
