/**
 * Who may use a way, and in which direction: per-mode access from the access tag hierarchy and
 * oneway rules, after OSRM's car/bicycle/foot profiles (lib/access.lua find_access_tag) and
 * Valhalla's graph_lua_proc. The defaults per road class are in CLASS_ACCESS below.
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import { MODES, type DirectionalAccess, type Mode, type RoadClass } from './way-profile.ts';

export type ModeAccess = Record<Mode, DirectionalAccess>;

/** Most specific key first; `access` is always last (see accessFor). */
export const ACCESS_KEYS: Record<Mode, readonly string[]> = {
  auto: ['motorcar', 'motor_vehicle', 'vehicle'],
  truck: ['hgv', 'motor_vehicle', 'vehicle'],
  bicycle: ['bicycle', 'vehicle'],
  pedestrian: ['foot'],
};

/**
 * Values that grant access. destination/delivery/customers/residents are "allowed when going
 * there": the way stays routable (OSRM's access_tag_restricted); dismount means bicycles may be
 * pushed along it.
 */
const GRANTS = new Set(['yes', 'designated', 'permissive', 'destination', 'delivery', 'customers', 'residents',
  'official', 'discouraged', 'dismount', 'public', 'true', '1']);
/** Values that deny it (OSRM's access_tag_blacklist plus use_sidepath for bicycles and pedestrians). */
const DENIES = new Set(['no', 'private', 'agricultural', 'forestry', 'emergency', 'psv', 'bus', 'military',
  'permit', 'use_sidepath', 'false', '0']);

/** true/false for a recognised access value (a;b lists: allowed when any part is), null otherwise. */
export function accessValue(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  let verdict: boolean | null = null;
  for (const part of value.split(';')) {
    const v = part.trim().toLowerCase();
    if (GRANTS.has(v)) return true;
    if (DENIES.has(v)) verdict = false;
  }
  return verdict;
}

const Y = true, N = false;
/** Default access per class, [auto, truck, bicycle, pedestrian]. Tracks take trucks only when tagged. */
const CLASS_ACCESS: Record<RoadClass, readonly [boolean, boolean, boolean, boolean]> = {
  motorway: [Y, Y, N, N], trunk: [Y, Y, Y, Y], primary: [Y, Y, Y, Y], secondary: [Y, Y, Y, Y],
  tertiary: [Y, Y, Y, Y], unclassified: [Y, Y, Y, Y], residential: [Y, Y, Y, Y], service: [Y, Y, Y, Y],
  living_street: [Y, Y, Y, Y], track: [Y, N, Y, Y], path: [N, N, Y, Y], cycleway: [N, N, Y, Y],
  footway: [N, N, N, Y], pedestrian: [N, N, N, Y], steps: [N, N, N, Y], ferry: [Y, Y, Y, Y],
};

export interface ClassDefaults {
  roadClass: RoadClass;
  /** Closed to every mode unless tagged in (highway=bridleway: a path for horses). */
  closed?: boolean;
}

export function classDefault(mode: Mode, defaults: ClassDefaults, tags: OsmTags): boolean {
  if (defaults.closed) return false;
  const base = CLASS_ACCESS[defaults.roadClass][MODES.indexOf(mode)]!;
  if (!base) return false;
  // motorroad=yes: a motor road, closed to bicycles and pedestrians unless they are tagged in.
  if ((mode === 'bicycle' || mode === 'pedestrian') && tags.motorroad === 'yes') return false;
  // OSRM's service_tag_forbidden: emergency access lanes are not for general motor traffic.
  if ((mode === 'auto' || mode === 'truck') && tags.service === 'emergency_access') return false;
  return true;
}

/**
 * Access for one mode and direction. The first recognised value along the key hierarchy decides
 * (`key:forward`/`key:backward` before `key`). A mode's own keys may open a way its class closes
 * (bicycle=yes on a footway); plain access=yes only confirms the class default, so access=yes on a
 * motorway does not let bicycles in, while access=no closes it to every mode not tagged back in.
 */
export function accessFor(tags: OsmTags, mode: Mode, direction: 'forward' | 'backward', classAllows: boolean): boolean {
  for (const key of ACCESS_KEYS[mode]) {
    const v = accessValue(tags[`${key}:${direction}`]) ?? accessValue(tags[key]);
    if (v !== null) return v;
  }
  const general = accessValue(tags[`access:${direction}`]) ?? accessValue(tags.access);
  return general === false ? false : classAllows;
}

type Oneway = 'forward' | 'backward' | 'both' | 'none';

/** oneway=* values: yes/-1/no, reversible/alternating (time-dependent: no fixed direction, so none). */
export function onewayValue(value: string | undefined): Oneway | null {
  switch (value?.trim().toLowerCase()) {
    case 'yes': case 'true': case '1': return 'forward';
    case '-1': case 'reverse': return 'backward';
    case 'no': case 'false': case '0': return 'both';
    case 'reversible': case 'alternating': return 'none';
    default: return null;
  }
}

const ONEWAY_KEYS: Record<Mode, readonly string[]> = {
  auto: ['oneway:motorcar', 'oneway:motor_vehicle', 'oneway:vehicle', 'oneway'],
  truck: ['oneway:hgv', 'oneway:motor_vehicle', 'oneway:vehicle', 'oneway'],
  bicycle: ['oneway:bicycle'],
  pedestrian: ['oneway:foot'],
};

/** A contraflow cycle lane: cycleway=opposite*, or a cycleway:left/right/both lane tagged oneway=no/-1. */
function bicycleContraflow(tags: OsmTags): boolean {
  for (const side of ['cycleway', 'cycleway:left', 'cycleway:right', 'cycleway:both']) {
    if (tags[side]?.startsWith('opposite')) return true;
    const lane = tags[`${side}:oneway`];
    if (side !== 'cycleway' && (lane === 'no' || lane === '-1')) return true;
  }
  return false;
}

/** roundabouts and motorways are oneway without a tag (OSRM's implied oneways). */
function impliedOneway(tags: OsmTags): boolean {
  return tags.junction === 'roundabout' || tags.junction === 'circular' || tags.highway === 'motorway';
}

/**
 * The direction rule for a mode. Pedestrians walk both ways whatever oneway=* says (only
 * oneway:foot binds them); bicycles follow oneway=* unless oneway:bicycle or a contraflow lane
 * says otherwise. On a ferry oneway=* binds everyone: the boat only goes one way.
 */
export function onewayFor(tags: OsmTags, mode: Mode, ferry: boolean): Oneway {
  for (const key of ONEWAY_KEYS[mode]) {
    const v = onewayValue(tags[key]);
    if (v !== null) return v;
  }
  if (mode === 'pedestrian' && !ferry) return 'both';
  if (mode === 'bicycle') {
    if (bicycleContraflow(tags)) return 'both';
    for (const key of ['oneway:vehicle', 'oneway']) {
      const v = onewayValue(tags[key]);
      if (v !== null) return v;
    }
  }
  if (mode === 'pedestrian') return onewayValue(tags.oneway) ?? 'both';
  return impliedOneway(tags) ? 'forward' : 'both';
}

/** Per-mode access in both directions: access tags, then the oneway rule. */
export function wayAccess(tags: OsmTags, defaults: ClassDefaults, ferry = false): ModeAccess {
  const result = {} as ModeAccess;
  for (const mode of MODES) {
    const allows = classDefault(mode, defaults, tags);
    const oneway = onewayFor(tags, mode, ferry);
    result[mode] = {
      forward: (oneway === 'forward' || oneway === 'both') && accessFor(tags, mode, 'forward', allows),
      backward: (oneway === 'backward' || oneway === 'both') && accessFor(tags, mode, 'backward', allows),
    };
  }
  return result;
}

export function anyAccess(access: ModeAccess): boolean {
  return MODES.some((m) => access[m].forward || access[m].backward);
}
