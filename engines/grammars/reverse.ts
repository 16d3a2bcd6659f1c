import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { GeocodeResult } from '../geocoding/types.ts';
import { DLS_CELL_LEVELS, dlsCellAt } from '../survey/dls.ts';
import { ntsCellAt, NTS_CELL_LEVELS, type NtsLevel } from '../survey/nts.ts';
import { dlsResult, ntsResult } from './legal-land-result.ts';

/** Where the BC grid subdivides NTS sheets (British Columbia, west of Alberta's 120°W / continental-divide border, roughly). */
const BC_GRID_EAST = -114;
const BC_GRID_SOUTH = 48.2;
const BC_GRID_NORTH = 60;

const NTS_SHEET_LEVELS: readonly NtsLevel[] = ['series', 'map_area', 'sheet'];

/**
 * /geocode/reverse?layers=legal_land: the survey cells holding a point, nearest centre first.
 * Inside the Dominion Land Survey its LSD, quarter section, section and township; elsewhere the
 * NTS series, map area and sheet, with the BC grid's block, unit and quarter unit in British
 * Columbia (the DLS takes precedence in BC's Peace River Block).
 */
export function legalLandAt(lng: number, lat: number, options: { limit: number; geometry: boolean }): GeocodeResult[] {
  const results: GeocodeResult[] = [];
  for (const level of DLS_CELL_LEVELS) {
    const cell = dlsCellAt(lng, lat, level);
    if (cell) results.push(dlsResult(cell, { geometry: options.geometry }));
  }
  if (results.length === 0) {
    const bc = lng < BC_GRID_EAST && lat >= BC_GRID_SOUTH && lat < BC_GRID_NORTH;
    for (const level of bc ? NTS_CELL_LEVELS : NTS_SHEET_LEVELS) {
      const cell = ntsCellAt(lng, lat, level);
      if (cell) results.push(ntsResult(cell, { geometry: options.geometry }));
    }
  }
  return results
    .map((result) => ({ ...result, match_type: 'unknown' as const, distance: Math.round(haversineMetres(lng, lat, result.lng, result.lat)) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, options.limit);
}
