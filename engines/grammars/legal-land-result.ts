import type { GeocodeResult } from '../geocoding/types.ts';
import type { LegalLand } from '../../schemas/geocoding-api.ts';
import { dlsFeature, type DlsCell } from '../survey/dls.ts';
import { ntsFeature, type NtsCell } from '../survey/nts.ts';

export interface RecordResultOptions {
  /** geometry=true: the survey polygon. */
  geometry: boolean;
  /** search and autocomplete carry a score; reverse carries a distance instead. */
  score?: number;
}

type Bounds = readonly [number, number, number, number];

function common(id: string, bounds: Bounds, centre: readonly [number, number], legal: LegalLand, source: string, polygon: () => number[][][], options: RecordResultOptions): GeocodeResult {
  return {
    id: `legal_land:${legal.system}:${id}`,
    name: id,
    layer: 'legal_land',
    lng: round(centre[0]),
    lat: round(centre[1]),
    ...(options.score === undefined ? {} : { score: options.score }),
    source,
    source_id: id,
    match_type: 'exact',
    // A cell centre is neither a source point nor a locality centroid.
    precision: 'unknown',
    legal_land: legal,
    bbox: [round(bounds[0]), round(bounds[1]), round(bounds[2]), round(bounds[3])],
    ...(options.geometry ? { geometry: { type: 'Polygon', coordinates: polygon() } } : {}),
  };
}

const round = (degrees: number): number => Math.round(degrees * 1e7) / 1e7;

/** A Dominion Land Survey cell as a geocoding result. */
export function dlsResult(cell: DlsCell, options: RecordResultOptions): GeocodeResult {
  const components: Record<string, string | number> = { meridian: cell.meridian, range: cell.range, township: cell.township };
  if (cell.section !== undefined) components.section = cell.section;
  if (cell.quarter !== undefined) components.quarter = cell.quarter;
  if (cell.lsd !== undefined) components.lsd = cell.lsd;
  const legal: LegalLand = {
    system: 'DLS',
    ...(cell.province ? { province: cell.province } : {}),
    canonical: cell.id,
    unit: cell.level,
    components,
  };
  return common(cell.id, cell.bounds, cell.centre, legal, 'dls-model', () => dlsFeature(cell).geometry.coordinates, options);
}

/** An NTS (or BC grid) cell as a geocoding result; its edges are lines of latitude and longitude. */
export function ntsResult(cell: NtsCell, options: RecordResultOptions): GeocodeResult {
  const components: Record<string, string | number> = { series: cell.series };
  if (cell.mapArea !== undefined) components.map_area = cell.mapArea;
  if (cell.sheet !== undefined) components.sheet = cell.sheet;
  if (cell.block !== undefined) components.block = cell.block;
  if (cell.unit !== undefined) components.unit = cell.unit;
  if (cell.quarterUnit !== undefined) components.quarter_unit = cell.quarterUnit;
  const [west, south, east, north] = cell.bounds;
  const bcGrid = cell.block !== undefined;
  const legal: LegalLand = { system: 'NTS', ...(bcGrid ? { province: 'BC' } : {}), canonical: cell.id, unit: cell.level, components };
  return common(cell.id, cell.bounds, [(west + east) / 2, (south + north) / 2], legal, 'nts', () => ntsFeature(cell).geometry.coordinates, options);
}
