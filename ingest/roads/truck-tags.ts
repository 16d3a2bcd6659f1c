/**
 * Truck restrictions from the tags: dimension and weight limits in metres and tonnes
 * (OSM wiki Key:maxheight / Key:maxweight units), designated truck routes and hazmat bans.
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import type { TruckLimits } from './way-profile.ts';

const FOOT = 0.3048;
const INCH = 0.0254;
/** Values that say there is no (signed) limit. */
const NO_LIMIT = new Set(['default', 'none', 'no', 'below_default', 'no_sign', 'no_indications', 'unsigned', 'unknown']);

const METRIC_LENGTH = /^(\d+(?:[.,]\d+)?)\s*(m|cm)?$/i;
const FEET_INCHES = /^(\d+(?:\.\d+)?)\s*(?:'|ft|feet)\s*(?:(\d+(?:\.\d+)?)\s*(?:"|''|in|inch|inches))?$/i;

const positive = (v: number): number | null => (Number.isFinite(v) && v > 0 ? v : null);
const round3 = (v: number): number => Math.round(v * 1000) / 1000;

/** A length in metres: "4.2", "4.2 m", "420 cm", "13'6\"", "14 ft"; null for none/default or nonsense. */
export function parseLength(value: string | undefined): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (NO_LIMIT.has(v.toLowerCase())) return null;
  let m = METRIC_LENGTH.exec(v);
  if (m) {
    const n = Number(m[1]!.replace(',', '.'));
    const metres = positive(m[2]?.toLowerCase() === 'cm' ? n / 100 : n);
    return metres === null ? null : round3(metres);
  }
  m = FEET_INCHES.exec(v);
  if (m) {
    const metres = positive(Number(m[1]) * FOOT + (m[2] ? Number(m[2]) * INCH : 0));
    return metres === null ? null : round3(metres);
  }
  return null;
}

/** Tonnes per unit: t, kg, lbs, st (US short ton), lt (long ton). */
const WEIGHT_UNITS: Record<string, number> = {
  t: 1, tonne: 1, tonnes: 1, kg: 0.001, lb: 0.00045359237, lbs: 0.00045359237, st: 0.90718474, lt: 1.0160469088,
};
const WEIGHT = /^(\d+(?:[.,]\d+)?)\s*([a-z]+)?$/i;

/** A weight in tonnes: "10", "10 t", "20000 lbs", "12 st", "3500 kg"; null for none/default or nonsense. */
export function parseWeight(value: string | undefined): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (NO_LIMIT.has(v.toLowerCase())) return null;
  const m = WEIGHT.exec(v);
  if (!m) return null;
  const factor = WEIGHT_UNITS[(m[2] ?? 't').toLowerCase()];
  if (factor === undefined) return null;
  const tonnes = positive(Number(m[1]!.replace(',', '.')) * factor);
  return tonnes === null ? null : round3(tonnes);
}

/** The lowest of the limits the keys give (maxheight and maxheight:physical both bind). */
function lowest(tags: OsmTags, keys: readonly string[], parse: (v: string | undefined) => number | null): number | null {
  let best: number | null = null;
  for (const key of keys) {
    const v = parse(tags[key]);
    if (v !== null && (best === null || v < best)) best = v;
  }
  return best;
}

export function truckLimits(tags: OsmTags): TruckLimits {
  return {
    maxHeight: lowest(tags, ['maxheight', 'maxheight:physical'], parseLength),
    maxWidth: lowest(tags, ['maxwidth', 'maxwidth:physical'], parseLength),
    maxLength: lowest(tags, ['maxlength', 'maxlength:hgv'], parseLength),
    maxWeight: lowest(tags, ['maxweight', 'maxweight:hgv'], parseWeight),
    maxAxleLoad: lowest(tags, ['maxaxleload'], parseWeight),
  };
}

/** hgv=designated: a designated truck route (Valhalla's truck_route). */
export function isTruckRoute(tags: OsmTags): boolean {
  return tags.hgv === 'designated' || tags['hgv:national_network'] === 'yes';
}

/** hazmat=no, or any hazmat:* class or category (hazmat:water, hazmat:B …) forbidden. */
export function hazmatForbidden(tags: OsmTags): boolean {
  for (const [key, value] of Object.entries(tags)) {
    if ((key === 'hazmat' || key.startsWith('hazmat:')) && value === 'no') return true;
  }
  return false;
}
