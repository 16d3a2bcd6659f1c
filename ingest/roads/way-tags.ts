/**
 * The OSM tag model of the road graph: `wayProfile(tags)` turns a way's tags into what the graph
 * keeps per edge (WayProfile), or null when no mode may use it; `turnRestriction(relation)`
 * reads type=restriction relations.
 *
 * Rules follow common routing-engine practice — OSRM's car/bicycle/foot profiles (access tag
 * hierarchy, access_tag_blacklist, implied oneways, service=emergency_access, ferry durations)
 * and Valhalla's graph_lua_proc (per-direction access keys, truck limits, hgv=designated as a
 * truck route, hazmat).
 *
 * Defaults tables and their sources:
 * - access per road class (access.ts CLASS_ACCESS): the worldwide row of the OSM wiki's
 *   "OSM tags for routing/Access restrictions", except that pedestrians may use cycleways (Canadian
 *   multi-use paths, as OSRM-derived pedestrian profiles do) and trucks need hgv=* on tracks;
 * - speeds when maxspeed is absent (speeds.ts DEFAULT_KMH, LINK_KMH): Canadian statutory limits
 *   (Wikipedia "Speed limits in Canada": 50 urban, 80 rural, 100 on expressways) for through
 *   classes, below the urban limit for residential and unclassified streets, and OSRM car.lua's
 *   values for living streets and the ferry speed (5 km/h, boarding included);
 * - trucks capped at 90 km/h (speeds.ts TRUCK_MAX_KMH), maxspeed:hgv when tagged;
 * - implicit maxspeed values (speeds.ts CANADA_IMPLICIT_KMH): the same Wikipedia statutory table,
 *   per province where it differs from 50/80/100;
 * - units of maxheight/maxwidth/maxlength/maxweight (truck-tags.ts): OSM wiki Key:maxheight and
 *   Key:maxweight (m, cm, ft/in; t, kg, lbs, st = US short ton, lt = long ton).
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import { anyAccess, wayAccess, type ClassDefaults } from './access.ts';
import { ferryAccess, isFerry, parseFerryDuration } from './ferry.ts';
import { DEFAULT_KMH, waySpeeds } from './speeds.ts';
import { hazmatForbidden, isTruckRoute, truckLimits } from './truck-tags.ts';
import type { WayProfile } from './way-profile.ts';

export { turnRestriction, turnRestrictions } from './turn-restrictions.ts';

interface HighwayClass extends ClassDefaults {
  link: boolean;
}

const LINKED = ['motorway', 'trunk', 'primary', 'secondary', 'tertiary'] as const;
const PLAIN = ['unclassified', 'residential', 'service', 'living_street', 'track', 'path', 'cycleway', 'footway',
  'pedestrian', 'steps'] as const;

/** highway=* values the graph routes on; anything else (construction, proposed, platforms as areas…) is not a road. */
const HIGHWAY_CLASSES: ReadonlyMap<string, HighwayClass> = new Map<string, HighwayClass>([
  ...LINKED.flatMap((c) => [[c, { roadClass: c, link: false }], [`${c}_link`, { roadClass: c, link: true }]] as const),
  ...PLAIN.map((c) => [c, { roadClass: c, link: false }] as const),
  ['road', { roadClass: 'unclassified', link: false }],
  ['corridor', { roadClass: 'footway', link: false }],
  ['platform', { roadClass: 'footway', link: false }],
  ['bridleway', { roadClass: 'path', link: false, closed: true }],
]);

/** Values of construction=* on a highway that leave it open (OSRM's construction_whitelist). */
const OPEN_CONSTRUCTION = new Set(['no', 'minor', 'widening']);

function outOfService(tags: OsmTags): boolean {
  const construction = tags.construction;
  if (construction !== undefined && !OPEN_CONSTRUCTION.has(construction)) return true;
  return tags.disused === 'yes' || tags.abandoned === 'yes';
}

const isYes = (v: string | undefined): boolean => v === 'yes' || v === 'true' || v === '1';
const present = (v: string | undefined): boolean => v !== undefined && v !== 'no';

function isToll(tags: OsmTags): boolean {
  return isYes(tags.toll) || isYes(tags['toll:motorcar']) || isYes(tags['toll:motor_vehicle']) || isYes(tags['toll:hgv']);
}

/** The graph's view of one way, or null when it is not a routable line for any mode. */
export function wayProfile(tags: OsmTags): WayProfile | null {
  if (isYes(tags.area)) return null;
  if (isFerry(tags)) return ferryProfile(tags);
  const highway = tags.highway;
  const cls = highway === undefined ? undefined : HIGHWAY_CLASSES.get(highway);
  if (!cls || outOfService(tags)) return null;
  const access = wayAccess(tags, cls);
  if (!anyAccess(access)) return null;
  return {
    roadClass: cls.roadClass,
    link: cls.link,
    access,
    speedKmh: waySpeeds(tags, cls.roadClass, cls.link),
    toll: isToll(tags),
    ferry: false,
    ferrySeconds: null,
    bridge: present(tags.bridge),
    tunnel: present(tags.tunnel),
    ...common(tags),
  };
}

function ferryProfile(tags: OsmTags): WayProfile | null {
  const access = ferryAccess(tags);
  if (!anyAccess(access)) return null;
  return {
    roadClass: 'ferry',
    link: false,
    access,
    speedKmh: { auto: DEFAULT_KMH.ferry, truck: DEFAULT_KMH.ferry },
    toll: isToll(tags),
    ferry: true,
    ferrySeconds: parseFerryDuration(tags.duration),
    bridge: false,
    tunnel: false,
    ...common(tags),
  };
}

function common(tags: OsmTags): Pick<WayProfile, 'truck' | 'truckRoute' | 'hazmatForbidden' | 'name' | 'ref'> {
  return {
    truck: truckLimits(tags),
    truckRoute: isTruckRoute(tags),
    hazmatForbidden: hazmatForbidden(tags),
    name: tags.name ?? null,
    ref: tags.ref ?? null,
  };
}
