/** OSM buildings → the `buildings` layer (kind building / building_part, height for 3D) and address points. */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import type { BasemapProperties } from './feature.ts';

const METRES_PER_LEVEL = 3;

/** Metres from `height` (`12`, `12 m`, `40'`), else from building:levels. */
function metres(value: string | undefined, levels: string | undefined): number | null {
  const m = value && /^\s*(\d+(?:\.\d+)?)\s*(m|'|ft)?\s*$/.exec(value);
  if (m) return Number(m[1]) * (m[2] === "'" || m[2] === 'ft' ? 0.3048 : 1);
  const n = levels !== undefined ? Number(levels) : NaN;
  return Number.isFinite(n) && n >= 0 ? n * METRES_PER_LEVEL : null;
}

export function classifyBuilding(tags: OsmTags): { kind: string; extra: BasemapProperties } | null {
  const part = tags['building:part'];
  const building = tags.building;
  const isPart = part !== undefined && part !== 'no';
  if (!isPart && (building === undefined || building === 'no')) return null;
  const extra: BasemapProperties = {};
  const height = metres(tags.height, tags['building:levels']);
  const minHeight = metres(tags.min_height, tags['building:min_level']);
  if (height !== null) extra.height = Math.round(height * 10) / 10;
  if (minHeight !== null) extra.min_height = Math.round(minHeight * 10) / 10;
  return { kind: isPart ? 'building_part' : 'building', extra };
}

/** A node that is only an address (no POI): a house-number label. */
export function addressNumber(tags: OsmTags): string | null {
  const number = tags['addr:housenumber']?.trim();
  return number && !tags.amenity && !tags.shop && !tags.tourism && !tags.name ? number : null;
}
