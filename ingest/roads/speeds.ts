/**
 * Free-flow speeds of the motor modes: maxspeed=* parsed (km/h, mph, knots, Canadian implicit
 * values, walk), else a default per road class. Bicycle and pedestrian speeds are engine
 * constants, not tags. Sources of the tables: see way-tags.ts.
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import type { RoadClass } from './way-profile.ts';

/** km/h when maxspeed is absent; links of motorway..tertiary use LINK_KMH. */
export const DEFAULT_KMH: Record<RoadClass, number> = {
  motorway: 100, trunk: 80, primary: 60, secondary: 50, tertiary: 50, unclassified: 40, residential: 40,
  service: 20, living_street: 10, track: 15, path: 10, cycleway: 10, footway: 10, pedestrian: 10, steps: 5,
  ferry: 5,
};
export const LINK_KMH: Partial<Record<RoadClass, number>> = {
  motorway: 60, trunk: 50, primary: 40, secondary: 40, tertiary: 30,
};
/** Trucks never go faster than this (speed limiters, lower truck limits on two-lane highways). */
export const TRUCK_MAX_KMH = 90;
/** maxspeed=walk. */
export const WALK_KMH = 5;

/**
 * Statutory speed limits in Canada (km/h) for maxspeed=CA:urban, CA:rural, CA:motorway and the
 * province-qualified CA:ON:urban / CA-ON:urban forms. Expressways have no statutory limit; 100 is
 * the usual posted one. Only provinces and territories that differ from the national row are listed.
 */
export const CANADA_IMPLICIT_KMH: Record<string, { urban: number; rural: number; motorway: number }> = {
  CA: { urban: 50, rural: 80, motorway: 100 },
  MB: { urban: 50, rural: 90, motorway: 100 },
  QC: { urban: 50, rural: 90, motorway: 100 },
  NT: { urban: 45, rural: 90, motorway: 100 },
  NU: { urban: 50, rural: 90, motorway: 100 },
};

const MPH = 1.609344;
const KNOT = 1.852;
const IMPLICIT = /^CA(?:[:-]([A-Z]{2}))?:(urban|rural|motorway)$/i;
const NUMERIC = /^(\d+(?:[.,]\d+)?)\s*(km\/h|kmh|kph|mph|knots)?$/i;

/** A Canadian implicit value (CA:urban, CA:ON:rural, CA-QC:motorway) in km/h, else null. */
export function implicitSpeed(value: string): number | null {
  const m = IMPLICIT.exec(value.trim());
  if (!m) return null;
  const province = m[1]?.toUpperCase();
  const row = (province && CANADA_IMPLICIT_KMH[province]) || CANADA_IMPLICIT_KMH.CA!;
  return row[m[2]!.toLowerCase() as 'urban' | 'rural' | 'motorway'];
}

function singleSpeed(value: string): number | null {
  const v = value.trim();
  if (v.toLowerCase() === 'walk') return WALK_KMH;
  const m = NUMERIC.exec(v);
  if (m) {
    const n = Number(m[1]!.replace(',', '.'));
    const unit = m[2]?.toLowerCase();
    const kmh = unit === 'mph' ? n * MPH : unit === 'knots' ? n * KNOT : n;
    return kmh > 0 && kmh <= 300 ? kmh : null;
  }
  return implicitSpeed(v);
}

/**
 * maxspeed=* in km/h, or null when it gives no number: absent, none (no limit: the class default
 * applies), signals/variable, or unparseable. "30;50" lists (time-dependent school zones in
 * Vancouver) take the highest value: the limit most of the day.
 */
export function parseMaxspeed(value: string | undefined): number | null {
  if (value === undefined) return null;
  let best: number | null = null;
  for (const part of value.split(';')) {
    const kmh = singleSpeed(part);
    if (kmh !== null && (best === null || kmh > best)) best = kmh;
  }
  return best;
}

/**
 * The posted limit of a way: maxspeed:forward/backward (the lower of the two, as edges keep one
 * speed for both directions), else maxspeed, else an implicit value in maxspeed:type or
 * source:maxspeed (CA:urban).
 */
export function postedSpeed(tags: OsmTags, prefix = 'maxspeed'): number | null {
  const directional = [parseMaxspeed(tags[`${prefix}:forward`]), parseMaxspeed(tags[`${prefix}:backward`])]
    .filter((v): v is number => v !== null);
  const plain = parseMaxspeed(tags[prefix]);
  if (directional.length > 0) {
    // a direction without its own value runs at the plain limit
    if (directional.length === 1 && plain !== null) directional.push(plain);
    return Math.min(...directional);
  }
  if (plain !== null) return plain;
  if (prefix !== 'maxspeed') return null;
  const type = tags['maxspeed:type'] ?? tags['source:maxspeed'];
  return type === undefined ? null : implicitSpeed(type);
}

export function defaultSpeed(roadClass: RoadClass, link: boolean): number {
  return (link ? LINK_KMH[roadClass] : undefined) ?? DEFAULT_KMH[roadClass];
}

/** Auto and truck speeds in km/h: the posted limit (maxspeed:hgv for trucks), else the class default; trucks capped. */
export function waySpeeds(tags: OsmTags, roadClass: RoadClass, link: boolean): { auto: number; truck: number } {
  const auto = postedSpeed(tags) ?? defaultSpeed(roadClass, link);
  const truck = Math.min(postedSpeed(tags, 'maxspeed:hgv') ?? auto, auto, TRUCK_MAX_KMH);
  return { auto: round1(auto), truck: round1(truck) };
}

const round1 = (v: number): number => Math.round(v * 10) / 10;
