/**
 * Truck restrictions from OSM tags: dimension and weight units, designated truck routes, hazmat
 * bans, on hand-written values and on the real Vancouver extract
 * (../shared/data/osm/pelias-vancouver_canada.osm.pbf, © OpenStreetMap contributors, ODbL).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '../support/paths.ts';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';
import type { OsmTags } from '../../ingest/osm/pbf-primitive-block.ts';
import { hazmatForbidden, isTruckRoute, parseLength, parseWeight, truckLimits } from '../../ingest/roads/truck-tags.ts';
import type { WayProfile } from '../../ingest/roads/way-profile.ts';
import { wayProfile } from '../../ingest/roads/way-tags.ts';

describe('parseLength (metres)', () => {
  it.each([
    ['4.2', 4.2], ['4.2 m', 4.2], ['4.2m', 4.2], ['4,2', 4.2], ['4', 4], ['420 cm', 4.2], ['2.55 m', 2.55],
    ['13\'6"', 4.115], ['13\' 6"', 4.115], ['13\'6\'\'', 4.115], ['14\'', 4.267], ['14 ft', 4.267], ['14ft', 4.267],
    ['12 ft 6 in', 3.81], ['75 ft', 22.86], [' 4.41 ', 4.41],
    ['default', null], ['none', null], ['below_default', null], ['no_sign', null], ['no_indications', null], ['unsigned', null],
    ['0', null], ['-3', null], ['tall', null], ['4.2 km', null], ['', null],
  ] as const)('%j → %s', (value, expected) => {
    expect(parseLength(value)).toBe(expected);
  });
  it('is null when absent', () => expect(parseLength(undefined)).toBeNull());
});

describe('parseWeight (tonnes)', () => {
  it.each([
    ['10', 10], ['10 t', 10], ['10t', 10], ['7.5', 7.5], ['3,5 t', 3.5], ['3500 kg', 3.5], ['20000 lbs', 9.072], ['20000 lb', 9.072],
    ['12 st', 10.886], ['10 lt', 10.16], ['40 tonnes', 40],
    ['default', null], ['none', null], ['0', null], ['heavy', null], ['10 stones', null], ['10 oz', null], ['', null],
  ] as const)('%j → %s', (value, expected) => {
    expect(parseWeight(value)).toBe(expected);
  });
  it('is null when absent', () => expect(parseWeight(undefined)).toBeNull());
});

describe('truckLimits', () => {
  it.each([
    [{}, { maxHeight: null, maxWidth: null, maxLength: null, maxWeight: null, maxAxleLoad: null }],
    [{ maxheight: '4.0', maxwidth: '2.5', maxlength: '12', maxweight: '10', maxaxleload: '8' },
      { maxHeight: 4, maxWidth: 2.5, maxLength: 12, maxWeight: 10, maxAxleLoad: 8 }],
    [{ maxheight: '4.5', 'maxheight:physical': '4.3' }, { maxHeight: 4.3 }],
    [{ maxheight: 'default', 'maxheight:physical': '13\'6"' }, { maxHeight: 4.115 }],
    [{ maxwidth: '8 ft', 'maxwidth:physical': '3' }, { maxWidth: 2.438 }],
    [{ maxweight: '20', 'maxweight:hgv': '15000 kg' }, { maxWeight: 15 }],
    [{ 'maxlength:hgv': '16.5', maxlength: 'none' }, { maxLength: 16.5 }],
    [{ maxaxleload: '20000 lbs' }, { maxAxleLoad: 9.072 }],
  ] as Array<[OsmTags, object]>)('%j', (tags, expected) => {
    expect(truckLimits(tags)).toMatchObject(expected);
  });
});

describe('truck route and hazmat', () => {
  it.each([
    [{ hgv: 'designated' }, true], [{ 'hgv:national_network': 'yes' }, true], [{ hgv: 'yes' }, false], [{ hgv: 'destination' }, false], [{}, false],
  ] as Array<[OsmTags, boolean]>)('truck route %j → %s', (tags, expected) => {
    expect(isTruckRoute(tags)).toBe(expected);
  });
  it.each([
    [{ hazmat: 'no' }, true], [{ 'hazmat:water': 'no' }, true], [{ 'hazmat:B': 'no' }, true], [{ hazmat: 'yes' }, false],
    [{ hazmat: 'designated' }, false], [{ 'hazmat:conditional': 'no @ (Mo-Fr 07:00-19:00)' }, false], [{}, false],
  ] as Array<[OsmTags, boolean]>)('hazmat %j → %s', (tags, expected) => {
    expect(hazmatForbidden(tags)).toBe(expected);
  });

  it('hgv=no closes a way to trucks only; hgv=designated marks the truck route', () => {
    const closed = wayProfile({ highway: 'secondary', hgv: 'no', maxweight: '9' })!;
    expect(closed.access.truck).toEqual({ forward: false, backward: false });
    expect(closed.access.auto).toEqual({ forward: true, backward: true });
    expect(closed.truck.maxWeight).toBe(9);
    expect(wayProfile({ highway: 'primary', hgv: 'designated' })).toMatchObject({ truckRoute: true });
    expect(wayProfile({ highway: 'primary', hazmat: 'no' })).toMatchObject({ hazmatForbidden: true, truckRoute: false });
  });
});

describe('the Vancouver extract', () => {
  const profiles = new Map<number, WayProfile>();
  let hazmatNoTags = 0;

  beforeAll(async () => {
    await readOsm(sharedData('osm', 'pelias-vancouver_canada.osm.pbf'), {
      way(w) {
        const p = wayProfile(w.tags);
        if (!p) return;
        profiles.set(w.id, p);
        if (Object.entries(w.tags).some(([k, v]) => k.startsWith('hazmat') && v === 'no')) hazmatNoTags++;
      },
    });
  });

  const all = () => [...profiles.values()];

  it('finds the truck limits, routes and bans the extract tags', () => {
    // measured: one maxheight (4.41 m, Trans-Canada Highway), two maxweight (13 and 9 t), 320 hgv=designated
    expect(all().filter((p) => p.truck.maxHeight !== null).map((p) => p.truck.maxHeight)).toEqual([4.41]);
    expect(all().filter((p) => p.truck.maxWeight !== null).map((p) => p.truck.maxWeight!).sort((a, b) => a - b)).toEqual([9, 13]);
    expect(all().filter((p) => p.truck.maxWidth !== null || p.truck.maxLength !== null || p.truck.maxAxleLoad !== null)).toEqual([]);
    expect(all().filter((p) => p.truckRoute).length).toBe(320);
    expect(hazmatNoTags).toBe(12);
    expect(all().filter((p) => p.hazmatForbidden).length).toBe(hazmatNoTags);
  });

  it.each([
    [322372731, { roadClass: 'motorway', truckRoute: true, truck: { maxHeight: 4.41 } }],
    [4755915, { name: 'Lions Gate Bridge', truckRoute: false, truck: { maxWeight: 13, maxHeight: null } }],
    [92594317, { name: 'River Road', truck: { maxWeight: 9 } }],
    [23845978, { tunnel: true, hazmatForbidden: true, truckRoute: false }],
  ])('way %i', (id, expected) => {
    expect(profiles.get(id)).toMatchObject(expected);
  });

  it('closes hgv=no ways to trucks and keeps them for cars', () => {
    for (const id of [4231651, 4231652, 4299526, 4755915, 92594317]) {
      const p = profiles.get(id)!;
      expect(p.access.truck, `way ${id}`).toEqual({ forward: false, backward: false });
      expect(p.access.auto.forward || p.access.auto.backward, `way ${id}`).toBe(true);
    }
  });
});
