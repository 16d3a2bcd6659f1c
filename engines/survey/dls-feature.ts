import type { DlsCell, DlsLevel } from './dls-types.ts';

export type DlsFeatureProperties = {
  id: string;
  unit: string;
  survey_system: 'DLS';
  level: DlsLevel;
  name: string;
  meridian: string;
  range: number;
  township: number;
  section?: number;
  quarter?: string;
  lsd?: number;
};

export interface DlsFeature {
  type: 'Feature';
  geometry: { type: 'Polygon'; coordinates: number[][][] };
  properties: DlsFeatureProperties;
}

/** A cell as a GeoJSON Feature: its ring (counter-clockwise, closed). `level` names the survey.dls source layer. */
export function dlsFeature(cell: DlsCell): DlsFeature {
  const properties: DlsFeatureProperties = {
    id: cell.id,
    unit: cell.id,
    survey_system: 'DLS',
    level: cell.level,
    name: cell.id,
    meridian: cell.meridian,
    range: cell.range,
    township: cell.township,
  };
  if (cell.section !== undefined) properties.section = cell.section;
  if (cell.quarter !== undefined) properties.quarter = cell.quarter;
  if (cell.lsd !== undefined) properties.lsd = cell.lsd;
  return {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [cell.ring.map(([lng, lat]) => [lng, lat])] },
    properties,
  };
}
