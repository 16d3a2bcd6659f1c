import { ntsCell } from './nts-grid.ts';
import type { NtsLevel, NtsRef } from './nts-types.ts';

export type NtsFeatureProperties = {
  readonly id: string;
  readonly unit: string;
  readonly survey_system: 'NTS';
  readonly level: NtsLevel;
  readonly name: string;
};

export interface NtsFeature {
  readonly type: 'Feature';
  readonly geometry: { readonly type: 'Polygon'; readonly coordinates: number[][][] };
  readonly properties: NtsFeatureProperties;
}

/**
 * A cell as a GeoJSON Feature: its box as one closed counter-clockwise ring (RFC 7946), edges
 * straight in longitude/latitude as the NTS lines are. `level` names the survey.nts source layer.
 */
export function ntsFeature(ref: NtsRef): NtsFeature {
  const cell = ntsCell(ref);
  const [west, south, east, north] = cell.bounds;
  const ring = [
    [west, south],
    [east, south],
    [east, north],
    [west, north],
    [west, south],
  ];
  return {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [ring] },
    properties: { id: cell.id, unit: cell.id, survey_system: 'NTS', level: cell.level, name: cell.id },
  };
}
