/**
 * The OSM tag model of the road graph: per-mode access and oneways, road classes, speeds, ferries,
 * on hand-written tag sets and on the real Vancouver extract
 * (../shared/data/osm/pelias-vancouver_canada.osm.pbf, © OpenStreetMap contributors, ODbL).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '../support/paths.ts';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';
import type { OsmTags } from '../../ingest/osm/pbf-primitive-block.ts';
import { parseFerryDuration } from '../../ingest/roads/ferry.ts';
import { parseMaxspeed, postedSpeed, TRUCK_MAX_KMH } from '../../ingest/roads/speeds.ts';
import { MODES, type WayProfile } from '../../ingest/roads/way-profile.ts';
import { wayProfile } from '../../ingest/roads/way-tags.ts';

/** "both" | "fwd" | "back" | "-" per mode, in MODES order: auto truck bicycle pedestrian. */
function directions(p: WayProfile | null): string {
  if (!p) return 'null';
  return MODES.map((m) => {
    const a = p.access[m];
    return a.forward && a.backward ? 'both' : a.forward ? 'fwd' : a.backward ? 'back' : '-';
  }).join(' ');
}

describe('wayProfile access and oneway', () => {
  const cases: Array<[string, OsmTags, string]> = [
    ['residential: everyone both ways', { highway: 'residential' }, 'both both both both'],
    ['motorway: motor only, implied oneway', { highway: 'motorway' }, 'fwd fwd - -'],
    ['motorway oneway=no', { highway: 'motorway', oneway: 'no' }, 'both both - -'],
    ['motorway access=yes does not let bicycles in', { highway: 'motorway', access: 'yes' }, 'fwd fwd - -'],
    ['motorway bicycle=yes', { highway: 'motorway', bicycle: 'yes' }, 'fwd fwd fwd -'],
    ['motorway_link is not implied oneway', { highway: 'motorway_link' }, 'both both - -'],
    ['trunk', { highway: 'trunk' }, 'both both both both'],
    ['motorroad=yes closes bicycles and pedestrians', { highway: 'trunk', motorroad: 'yes' }, 'both both - -'],
    ['motorroad=yes with foot=yes', { highway: 'primary', motorroad: 'yes', foot: 'yes' }, 'both both - both'],
    ['oneway=yes', { highway: 'residential', oneway: 'yes' }, 'fwd fwd fwd both'],
    ['oneway=true', { highway: 'residential', oneway: 'true' }, 'fwd fwd fwd both'],
    ['oneway=1', { highway: 'residential', oneway: '1' }, 'fwd fwd fwd both'],
    ['oneway=-1', { highway: 'residential', oneway: '-1' }, 'back back back both'],
    ['oneway=reversible: not for vehicles', { highway: 'secondary', oneway: 'reversible' }, '- - - both'],
    ['oneway=alternating', { highway: 'secondary', oneway: 'alternating' }, '- - - both'],
    ['oneway=unknown value ignored', { highway: 'residential', oneway: 'maybe' }, 'both both both both'],
    ['roundabout implies oneway', { highway: 'tertiary', junction: 'roundabout' }, 'fwd fwd fwd both'],
    ['circular implies oneway', { highway: 'tertiary', junction: 'circular' }, 'fwd fwd fwd both'],
    ['roundabout oneway=no', { highway: 'tertiary', junction: 'roundabout', oneway: 'no' }, 'both both both both'],
    ['oneway:bicycle=no', { highway: 'residential', oneway: 'yes', 'oneway:bicycle': 'no' }, 'fwd fwd both both'],
    ['oneway:bicycle=yes on a two-way street', { highway: 'residential', 'oneway:bicycle': 'yes' }, 'both both fwd both'],
    ['cycleway=opposite', { highway: 'residential', oneway: 'yes', cycleway: 'opposite' }, 'fwd fwd both both'],
    ['cycleway=opposite_lane', { highway: 'residential', oneway: 'yes', cycleway: 'opposite_lane' }, 'fwd fwd both both'],
    ['cycleway=opposite_track with oneway=-1', { highway: 'residential', oneway: '-1', cycleway: 'opposite_track' }, 'back back both both'],
    ['cycleway:left=opposite_lane', { highway: 'residential', oneway: 'yes', 'cycleway:left': 'opposite_lane' }, 'fwd fwd both both'],
    ['contraflow lane cycleway:left:oneway=-1', { highway: 'residential', oneway: 'yes', 'cycleway:left': 'lane', 'cycleway:left:oneway': '-1' }, 'fwd fwd both both'],
    ['cycleway=lane is not contraflow', { highway: 'residential', oneway: 'yes', cycleway: 'lane' }, 'fwd fwd fwd both'],
    ['oneway:foot=yes binds pedestrians', { highway: 'footway', 'oneway:foot': 'yes' }, '- - - fwd'],
    ['steps with oneway=yes: pedestrians walk both ways', { highway: 'steps', oneway: 'yes' }, '- - - both'],
    ['oneway:motor_vehicle=yes', { highway: 'residential', 'oneway:motor_vehicle': 'yes' }, 'fwd fwd both both'],
    ['access=no', { highway: 'residential', access: 'no' }, 'null'],
    ['access=private', { highway: 'service', access: 'private' }, 'null'],
    ['access=private foot=yes', { highway: 'service', access: 'private', foot: 'yes' }, '- - - both'],
    ['access=destination allowed', { highway: 'residential', access: 'destination' }, 'both both both both'],
    ['access=delivery allowed', { highway: 'service', access: 'delivery' }, 'both both both both'],
    ['access=customers allowed', { highway: 'service', access: 'customers' }, 'both both both both'],
    ['access=psv', { highway: 'service', access: 'psv' }, 'null'],
    ['access=agricultural;forestry', { highway: 'track', access: 'agricultural;forestry' }, 'null'],
    ['access=destination;delivery', { highway: 'service', access: 'destination;delivery' }, 'both both both both'],
    ['access=unknown falls back to the class', { highway: 'residential', access: 'unknown' }, 'both both both both'],
    ['motor_vehicle=no', { highway: 'residential', motor_vehicle: 'no' }, '- - both both'],
    ['motorcar=no keeps trucks', { highway: 'residential', motorcar: 'no' }, '- both both both'],
    ['hgv=no', { highway: 'secondary', hgv: 'no' }, 'both - both both'],
    ['hgv=destination', { highway: 'secondary', hgv: 'destination' }, 'both both both both'],
    ['vehicle=no', { highway: 'residential', vehicle: 'no' }, '- - - both'],
    ['vehicle=no bicycle=yes', { highway: 'residential', vehicle: 'no', bicycle: 'yes' }, '- - both both'],
    ['bicycle=no', { highway: 'primary', bicycle: 'no' }, 'both both - both'],
    ['bicycle=use_sidepath', { highway: 'primary', bicycle: 'use_sidepath' }, 'both both - both'],
    ['bicycle=dismount on a footway (pushing)', { highway: 'footway', bicycle: 'dismount' }, '- - both both'],
    ['foot=no', { highway: 'secondary', foot: 'no' }, 'both both both -'],
    ['motor_vehicle:forward=no', { highway: 'residential', 'motor_vehicle:forward': 'no' }, 'back back both both'],
    ['access:backward=no', { highway: 'residential', 'access:backward': 'no' }, 'fwd fwd fwd fwd'],
    ['footway', { highway: 'footway' }, '- - - both'],
    ['footway bicycle=yes', { highway: 'footway', bicycle: 'yes' }, '- - both both'],
    ['footway access=yes does not admit cars', { highway: 'footway', access: 'yes' }, '- - - both'],
    ['pedestrian street', { highway: 'pedestrian' }, '- - - both'],
    ['pedestrian street with motor_vehicle=destination', { highway: 'pedestrian', motor_vehicle: 'destination' }, 'both both - both'],
    ['steps', { highway: 'steps' }, '- - - both'],
    ['path', { highway: 'path' }, '- - both both'],
    ['path foot=no bicycle=no', { highway: 'path', foot: 'no', bicycle: 'no' }, 'null'],
    ['cycleway', { highway: 'cycleway' }, '- - both both'],
    ['cycleway foot=no', { highway: 'cycleway', foot: 'no' }, '- - both -'],
    ['living_street', { highway: 'living_street' }, 'both both both both'],
    ['track: trucks need hgv=*', { highway: 'track' }, 'both - both both'],
    ['track hgv=yes', { highway: 'track', hgv: 'yes' }, 'both both both both'],
    ['bridleway: closed unless tagged', { highway: 'bridleway' }, 'null'],
    ['bridleway foot=yes', { highway: 'bridleway', foot: 'yes' }, '- - - both'],
    ['service=emergency_access', { highway: 'service', service: 'emergency_access' }, '- - both both'],
    ['highway=road', { highway: 'road' }, 'both both both both'],
    ['corridor', { highway: 'corridor' }, '- - - both'],
    ['area=yes', { highway: 'pedestrian', area: 'yes' }, 'null'],
    ['highway=construction', { highway: 'construction', construction: 'residential' }, 'null'],
    ['construction=yes on a road', { highway: 'primary', construction: 'yes' }, 'null'],
    ['construction=minor stays open', { highway: 'primary', construction: 'minor' }, 'both both both both'],
    ['highway=proposed', { highway: 'proposed' }, 'null'],
    ['highway=abandoned', { highway: 'abandoned' }, 'null'],
    ['disused=yes', { highway: 'service', disused: 'yes' }, 'null'],
    ['highway=bus_guideway', { highway: 'bus_guideway' }, 'null'],
    ['highway=crossing way', { highway: 'crossing' }, 'null'],
    ['no highway', { building: 'yes' }, 'null'],
    ['route=ferry defaults', { route: 'ferry' }, 'both both both both'],
    ['ferry motorcar=no: no trucks either', { route: 'ferry', motorcar: 'no' }, '- - both both'],
    ['ferry motorcar=no hgv=yes', { route: 'ferry', motorcar: 'no', hgv: 'yes' }, '- both both both'],
    ['ferry motor_vehicle=no bicycle=no', { route: 'ferry', motor_vehicle: 'no', bicycle: 'no' }, '- - - both'],
    ['ferry foot=no', { route: 'ferry', foot: 'no' }, 'both both both -'],
    ['ferry oneway=yes binds everyone', { route: 'ferry', oneway: 'yes' }, 'fwd fwd fwd fwd'],
    ['ferry=no is not a ferry', { route: 'ferry', ferry: 'no' }, 'null'],
  ];
  it.each(cases)('%s', (_name, tags, expected) => {
    expect(directions(wayProfile(tags))).toBe(expected);
  });
});

describe('wayProfile classes and attributes', () => {
  it.each([
    ['motorway', 'motorway', false], ['motorway_link', 'motorway', true], ['trunk_link', 'trunk', true],
    ['primary', 'primary', false], ['secondary_link', 'secondary', true], ['tertiary_link', 'tertiary', true],
    ['unclassified', 'unclassified', false], ['road', 'unclassified', false], ['service', 'service', false],
    ['living_street', 'living_street', false], ['track', 'track', false], ['cycleway', 'cycleway', false],
    ['footway', 'footway', false], ['corridor', 'footway', false], ['steps', 'steps', false],
  ] as const)('highway=%s → %s (link %s)', (highway, roadClass, link) => {
    const p = wayProfile({ highway })!;
    expect(p.roadClass).toBe(roadClass);
    expect(p.link).toBe(link);
  });

  it('reads toll, bridge, tunnel, name and ref', () => {
    const p = wayProfile({ highway: 'motorway', toll: 'yes', bridge: 'viaduct', name: 'Golden Ears Bridge', ref: '17' })!;
    expect(p).toMatchObject({ toll: true, bridge: true, tunnel: false, name: 'Golden Ears Bridge', ref: '17', ferry: false, ferrySeconds: null });
    const q = wayProfile({ highway: 'primary', tunnel: 'building_passage', bridge: 'no', toll: 'no' })!;
    expect(q).toMatchObject({ toll: false, bridge: false, tunnel: true, name: null, ref: null });
    expect(wayProfile({ highway: 'primary', 'toll:hgv': 'yes' })!.toll).toBe(true);
  });

  it('gives ferries their class, duration and the ferry speed', () => {
    const p = wayProfile({ route: 'ferry', duration: '00:12', name: 'SeaBus' })!;
    expect(p).toMatchObject({ roadClass: 'ferry', ferry: true, ferrySeconds: 720, name: 'SeaBus', speedKmh: { auto: 5, truck: 5 } });
    expect(wayProfile({ route: 'ferry' })!.ferrySeconds).toBeNull();
    expect(wayProfile({ route: 'ferry', duration: 'soon' })!.ferrySeconds).toBeNull();
  });
});

describe('speeds', () => {
  it.each([
    ['50', 50], ['30', 30], ['100 km/h', 100], ['80kmh', 80], ['50 mph', 80.5], ['30mph', 48.3], ['10 knots', 18.5],
    ['CA:urban', 50], ['CA:rural', 80], ['CA:motorway', 100], ['CA:ON:urban', 50], ['CA:ON:rural', 80],
    ['CA:QC:rural', 90], ['CA-MB:rural', 90], ['CA:BC:rural', 80], ['CA:NT:urban', 45], ['ca:urban', 50],
    ['walk', 5], ['30;50', 50], ['40; 60', 60],
    ['none', null], ['signals', null], ['variable', null], ['DE:urban', null], ['fast', null], ['0', null], ['-30', null], ['', null],
  ] as const)('maxspeed=%s → %s', (value, expected) => {
    const v = parseMaxspeed(value);
    if (expected === null) expect(v).toBeNull();
    else expect(v).toBeCloseTo(expected, 1);
  });

  it('takes the lower of maxspeed:forward and :backward, and implicit values from maxspeed:type', () => {
    expect(postedSpeed({ 'maxspeed:forward': '60', 'maxspeed:backward': '50' })).toBe(50);
    expect(postedSpeed({ 'maxspeed:forward': '40', maxspeed: '60' })).toBe(40);
    expect(postedSpeed({ 'maxspeed:backward': '70', maxspeed: '60' })).toBe(60);
    expect(postedSpeed({ 'maxspeed:type': 'CA:urban' })).toBe(50);
    expect(postedSpeed({ 'source:maxspeed': 'CA:ON:rural' })).toBe(80);
    expect(postedSpeed({ maxspeed: '70', 'source:maxspeed': 'CA:urban' })).toBe(70);
    expect(postedSpeed({})).toBeNull();
  });

  it.each([
    [{ highway: 'motorway' }, 100, 90], [{ highway: 'motorway_link' }, 60, 60], [{ highway: 'trunk' }, 80, 80],
    [{ highway: 'primary' }, 60, 60], [{ highway: 'primary_link' }, 40, 40], [{ highway: 'secondary' }, 50, 50],
    [{ highway: 'tertiary_link' }, 30, 30], [{ highway: 'residential' }, 40, 40], [{ highway: 'service' }, 20, 20],
    [{ highway: 'living_street' }, 10, 10], [{ highway: 'track' }, 15, 15],
    [{ highway: 'motorway', maxspeed: '110' }, 110, TRUCK_MAX_KMH], [{ highway: 'motorway', maxspeed: 'none' }, 100, 90],
    [{ highway: 'primary', maxspeed: '50 mph' }, 80.5, 80.5], [{ highway: 'motorway', maxspeed: '100', 'maxspeed:hgv': '80' }, 100, 80],
    [{ highway: 'residential', maxspeed: 'CA:urban' }, 50, 50], [{ highway: 'residential', maxspeed: 'walk' }, 5, 5],
    [{ highway: 'primary', maxspeed: 'bogus' }, 60, 60],
  ] as Array<[OsmTags, number, number]>)('%j → auto %s, truck %s km/h', (tags, auto, truck) => {
    expect(wayProfile(tags)!.speedKmh).toEqual({ auto, truck });
  });
});

describe('ferry duration', () => {
  it.each([
    ['00:40', 2400], ['1:30', 5400], ['01:30:15', 5415], ['45', 2700], ['2.5', 150], ['PT1H30M', 5400], ['PT20M', 1200],
    ['PT45S', 45], ['P1DT2H', 93_600], ['pt1h', 3600], [' 00:20 ', 1200],
    ['', null], ['0', null], ['00:00', null], ['PT', null], ['P', null], ['1:75', null], ['half an hour', null], ['1h', null],
  ] as const)('duration=%j → %s s', (value, expected) => {
    expect(parseFerryDuration(value)).toBe(expected);
  });
  it('is null when absent', () => expect(parseFerryDuration(undefined)).toBeNull());
});

describe('the Vancouver extract', () => {
  const profiles = new Map<number, WayProfile | null>();
  const tagsById = new Map<number, OsmTags>();
  let highwayWays = 0;

  beforeAll(async () => {
    await readOsm(sharedData('osm', 'pelias-vancouver_canada.osm.pbf'), {
      way(w) {
        if (w.tags.highway === undefined && w.tags.route !== 'ferry') return;
        if (w.tags.highway !== undefined) highwayWays++;
        profiles.set(w.id, wayProfile(w.tags));
        tagsById.set(w.id, w.tags);
      },
    });
  });

  it('counts routable ways per mode', () => {
    const count = (pred: (p: WayProfile) => boolean) => [...profiles.values()].filter((p) => p !== null && pred(p)).length;
    const uses = (m: (typeof MODES)[number]) => (p: WayProfile) => p.access[m].forward || p.access[m].backward;
    // measured on this extract: 15,754 highway ways and 11 ferries
    expect(highwayWays).toBe(15_754);
    expect(count(() => true)).toBe(15_494);
    const perMode = Object.fromEntries(MODES.map((m) => [m, count(uses(m))]));
    expect(perMode).toEqual({ auto: 11_235, truck: 11_023, bicycle: 12_369, pedestrian: 15_295 });
    expect(count((p) => p.ferry)).toBe(11);
    // every way the auto profile uses in one direction only carries a oneway or junction tag (or is a motorway)
    for (const [id, p] of profiles) {
      if (!p || p.access.auto.forward === p.access.auto.backward) continue;
      const t = tagsById.get(id)!;
      expect(t.oneway !== undefined || t.junction !== undefined || t.highway === 'motorway', `way ${id}`).toBe(true);
    }
  });

  it.each([
    [4973554, 'Trans-Canada Highway: motorway, oneway, truck route', 'fwd fwd - -'],
    [23766582, 'Knight Street bridge: motorway with bicycle=yes foot=yes', 'fwd fwd fwd both'],
    [54436218, 'North Grandview Highway: cycleway=opposite_lane', 'fwd fwd both both'],
    [221532451, 'Comox Street: oneway=-1, cycleway=opposite_track', 'back back both both'],
    [24039195, 'York Avenue: oneway:bicycle=no', 'fwd fwd both both'],
    [36836348, 'West 16th Avenue roundabout, bicycle=no', 'fwd fwd - both'],
    [4755915, 'Lions Gate Bridge: hgv=no', 'both - both both'],
    [36809172, 'private driveway with foot=yes bicycle=yes', '- - both both'],
    [58466860, 'parking aisle access=customers', 'both both both both'],
    [37004623, 'cycle path foot=no', '- - both -'],
    [36474098, 'SeaBus: motorcar=no, bicycles and pedestrians', '- - both both'],
    [37083905, 'False Creek Ferries: bicycle=no', '- - - both'],
    [44392612, 'motorway_link under construction', 'null'],
    [74267962, 'inline skate path foot=no bicycle=no', 'null'],
    [37114399, 'Pigeon Park: highway=pedestrian area=yes', 'null'],
    [42240570, 'bare bridleway', 'null'],
  ])('way %i (%s)', (id, _what, expected) => {
    expect(profiles.has(id)).toBe(true);
    expect(directions(profiles.get(id)!)).toBe(expected);
  });

  it('reads the attributes of known ways', () => {
    expect(profiles.get(4973554)).toMatchObject({ roadClass: 'motorway', truckRoute: true, speedKmh: { auto: 100, truck: 90 }, ref: '1' });
    expect(profiles.get(4755915)).toMatchObject({ bridge: true, ref: '99;1A', speedKmh: { auto: 60, truck: 60 }, truck: { maxWeight: 13 } });
    expect(profiles.get(221532451)!.speedKmh.auto).toBe(30);
    // Larch Street: maxspeed=30;50 (school zone), access=destination
    expect(profiles.get(91998226)).toMatchObject({ roadClass: 'residential', speedKmh: { auto: 50 } });
    expect(profiles.get(91998226)!.access.auto).toEqual({ forward: true, backward: true });
    expect(profiles.get(36474098)).toMatchObject({ roadClass: 'ferry', ferry: true, ferrySeconds: null, name: 'SeaBus' });
    expect(profiles.get(23845978)).toMatchObject({ tunnel: true, hazmatForbidden: true });
  });
});
