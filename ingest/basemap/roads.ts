/**
 * OSM ways → the `roads` layer: highway classes as protomaps' kinds (highway, major_road,
 * minor_road, path, other), railways, runways and piers, with is_link / is_bridge / is_tunnel
 * (present only when true: the styles test them with `has`), oneway, and a route shield.
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import type { Classified } from './feature.ts';

const HIGHWAYS: Readonly<Record<string, { kind: string; minZoom: number; sortRank: number }>> = {
  motorway: { kind: 'highway', minZoom: 3, sortRank: 90 },
  trunk: { kind: 'major_road', minZoom: 5, sortRank: 85 },
  primary: { kind: 'major_road', minZoom: 7, sortRank: 80 },
  secondary: { kind: 'major_road', minZoom: 9, sortRank: 75 },
  tertiary: { kind: 'major_road', minZoom: 10, sortRank: 70 },
  residential: { kind: 'minor_road', minZoom: 12, sortRank: 60 },
  unclassified: { kind: 'minor_road', minZoom: 12, sortRank: 60 },
  living_street: { kind: 'minor_road', minZoom: 12, sortRank: 60 },
  road: { kind: 'minor_road', minZoom: 12, sortRank: 60 },
  service: { kind: 'minor_road', minZoom: 13, sortRank: 55 },
  pedestrian: { kind: 'path', minZoom: 12, sortRank: 50 },
  track: { kind: 'path', minZoom: 13, sortRank: 45 },
  cycleway: { kind: 'path', minZoom: 13, sortRank: 45 },
  footway: { kind: 'path', minZoom: 14, sortRank: 40 },
  path: { kind: 'path', minZoom: 14, sortRank: 40 },
  bridleway: { kind: 'path', minZoom: 14, sortRank: 40 },
  steps: { kind: 'path', minZoom: 14, sortRank: 40 },
  corridor: { kind: 'path', minZoom: 14, sortRank: 40 },
};

const LINK = /^(motorway|trunk|primary|secondary|tertiary)_link$/;
const RAILWAYS: ReadonlySet<string> = new Set(['rail', 'narrow_gauge', 'light_rail', 'subway', 'tram', 'monorail', 'funicular']);

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== 'no' && value !== '0' && value !== 'false';
}

/** The shield of a route: its first ref (`99;1A` → `99`), with the network as BC/AB/... when tagged. */
function shield(tags: OsmTags): Record<string, string> {
  const ref = tags.ref?.split(';')[0]?.trim();
  if (!ref) return {};
  const network = tags.network?.trim();
  return network ? { shield_text: ref, network } : { shield_text: ref };
}

function structure(tags: OsmTags): Record<string, boolean | string> {
  const flags: Record<string, boolean | string> = {};
  if (isSet(tags.bridge)) flags.is_bridge = true;
  if (isSet(tags.tunnel) && tags.tunnel !== 'building_passage') flags.is_tunnel = true;
  if (tags.oneway === 'yes' || tags.oneway === '1' || tags.oneway === 'true') flags.oneway = 'yes';
  if (tags.oneway === '-1') flags.oneway = 'reverse';
  return flags;
}

export function classifyRoad(tags: OsmTags): Classified | null {
  const highway = tags.highway;
  if (highway !== undefined) {
    const link = LINK.exec(highway);
    const base = link ? link[1]! : highway;
    const rule = HIGHWAYS[base];
    if (!rule || tags.area === 'yes') return null;
    const extra = { ...structure(tags), ...shield(tags) };
    if (link) extra.is_link = true;
    return { kind: rule.kind, kindDetail: base, minZoom: link ? Math.max(rule.minZoom, 11) : rule.minZoom, sortRank: rule.sortRank - (link ? 1 : 0), extra };
  }
  const railway = tags.railway;
  if (railway !== undefined && RAILWAYS.has(railway) && !isSet(tags.service)) {
    return { kind: 'rail', kindDetail: railway, minZoom: railway === 'rail' ? 10 : 12, sortRank: 30, extra: structure(tags) };
  }
  if (tags.aeroway === 'runway') return { kind: 'other', kindDetail: 'runway', minZoom: 9, sortRank: 20 };
  if (tags.aeroway === 'taxiway') return { kind: 'other', kindDetail: 'taxiway', minZoom: 13, sortRank: 20 };
  if (tags.man_made === 'pier') return { kind: 'other', kindDetail: 'pier', minZoom: 13, sortRank: 20 };
  return null;
}
