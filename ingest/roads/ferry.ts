/**
 * route=ferry ways: the crossing time from duration=* and which modes the boat carries.
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import { wayAccess, type ModeAccess } from './access.ts';

export function isFerry(tags: OsmTags): boolean {
  return tags.route === 'ferry' && tags.ferry !== 'no';
}

const CLOCK = /^(\d+):([0-5]?\d)(?::([0-5]?\d))?$/;
const ISO = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

/**
 * duration=* in seconds: "hh:mm", "hh:mm:ss", "mm" (minutes) or ISO 8601 "PT1H30M" ("P1DT2H");
 * null when absent, zero or unparseable (the build then uses the length at the ferry speed).
 */
export function parseFerryDuration(value: string | undefined): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  let seconds: number | null = null;
  let m = CLOCK.exec(v);
  if (m) {
    seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
  } else if (/^\d+(?:\.\d+)?$/.test(v)) {
    seconds = Number(v) * 60;
  } else if ((m = ISO.exec(v)) && v.length > 1 && !/T$/i.test(v)) {
    const [d, h, min, s] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number];
    seconds = d * 86_400 + h * 3600 + min * 60 + s;
  }
  return seconds !== null && seconds > 0 ? Math.round(seconds) : null;
}

/**
 * Which modes the ferry carries: the usual access keys, every mode by default. A boat that
 * takes no cars (motorcar=no) takes no trucks either unless hgv=* says so: foot ferries such as
 * Vancouver's Aquabus are tagged motorcar=no only.
 */
export function ferryAccess(tags: OsmTags): ModeAccess {
  const truckTags = tags.hgv === undefined && tags.motorcar !== undefined ? { ...tags, hgv: tags.motorcar } : tags;
  const access = wayAccess(tags, { roadClass: 'ferry' }, true);
  access.truck = wayAccess(truckTags, { roadClass: 'ferry' }, true).truck;
  return access;
}
