import type { DuckDBConnection } from '@duckdb/node-api';
import { parsePid, PidParseError } from '../../engines/parcels/pid.ts';
import type { ParcelRecord } from '../../engines/parcels/records.ts';
import { PARCELMAP_BC_SOURCE } from '../../schemas/parcels-release.ts';
import { csvHeaderKeys, planColumns, readCsvRows } from '../energy/csv-rows.ts';
import { InvalidInputError } from '../errors.ts';
import { bboxOf, interiorPoint } from './interior-point.ts';
import { parseWktPolygon } from './wkt.ts';

type ParcelField =
  | 'poly_id' | 'name' | 'plan_number' | 'pid' | 'pid_formatted' | 'status' | 'parcel_class' | 'owner_type'
  | 'municipality' | 'regional_district' | 'area_sqm' | 'geometry';

/**
 * ParcelMap BC's parcel fabric as the BC Data Catalogue exports it to CSV with the geometry as
 * WKT in EPSG:4326 (e.g. `ogr2ogr -f CSV -t_srs EPSG:4326 -lco GEOMETRY=AS_WKT`: column WKT).
 */
const PARCELMAP: Record<ParcelField, readonly string[]> = {
  poly_id: ['parcel_fabric_poly_id'],
  name: ['parcel_name'],
  plan_number: ['plan_number'],
  pid: ['pid'],
  pid_formatted: ['pid_formatted'],
  status: ['parcel_status'],
  parcel_class: ['parcel_class'],
  owner_type: ['owner_type'],
  municipality: ['municipality'],
  regional_district: ['regional_district'],
  area_sqm: ['feature_area_sqm'],
  geometry: ['wkt', 'geometry', 'shape', 'geom'],
};
const REQUIRED: readonly ParcelField[] = ['poly_id', 'pid', 'geometry'];
/** British Columbia with a margin. */
const BC = { west: -139.2, south: 48.2, east: -114, north: 60.1 };

/** A parcels release row: the record and what the engine does not serve but the table keeps. */
export interface ParcelRow extends ParcelRecord {
  parcelClass: string;
  ownerType: string;
  status: string;
  areaSqm: number | null;
}

export interface ParcelFile {
  rows: number;
  parcels: ParcelRow[];
  /** Rows without a PID (Crown land without title): counted, not indexed. */
  withoutPid: number;
}

/** A PID column value: ParcelMap's PID may lack the leading zeros of the nine digits. */
function pidOf(pid: string | null, formatted: string | null): string | null {
  const fromFormatted = formatted ? parsePid(formatted).pid : null;
  const fromPid = pid ? parsePid(/^\d{1,8}$/.test(pid) ? pid.padStart(9, '0') : pid).pid : null;
  if (fromFormatted && fromPid && fromFormatted !== fromPid) throw new PidParseError(`PID ${pid} and PID_FORMATTED ${formatted} disagree`);
  return fromFormatted ?? fromPid;
}

/** Reads one parcel-fabric CSV; any bad row refuses the file, naming the row. */
export async function readParcelFile(connection: DuckDBConnection, file: string): Promise<ParcelFile> {
  const plan = planColumns(await csvHeaderKeys(file), PARCELMAP);
  const missing = REQUIRED.filter((field) => plan[field] === null);
  if (missing.length) {
    throw new InvalidInputError(`parcels file ${file} (ParcelMap BC parcel fabric form) lacks the column(s) ${missing.map((f) => PARCELMAP[f][0]!.toUpperCase()).join(', ')}`);
  }
  const rows = await readCsvRows(connection, file, plan, 'parcels');
  const parcels: ParcelRow[] = [];
  const seen = new Map<string, number>();
  let withoutPid = 0;
  for (const { row, values } of rows) {
    const refuse = (why: string): never => {
      throw new InvalidInputError(`parcels file ${file} (ParcelMap BC form), data row ${row}: ${why}`);
    };
    const polyId = values.poly_id ?? refuse('no PARCEL_FABRIC_POLY_ID');
    const earlier = seen.get(polyId);
    if (earlier !== undefined) refuse(`PARCEL_FABRIC_POLY_ID ${polyId} is also on data row ${earlier}`);
    seen.set(polyId, row);
    let pid: string | null = null;
    try {
      pid = pidOf(values.pid, values.pid_formatted);
    } catch (err) {
      if (err instanceof PidParseError) refuse(err.message);
      throw err;
    }
    if (pid === null) {
      withoutPid++;
      continue;
    }
    let geometry: GeoJSON.Polygon | GeoJSON.MultiPolygon;
    try {
      geometry = parseWktPolygon(values.geometry ?? refuse('no geometry'));
    } catch (err) {
      return refuse(`geometry: ${(err as Error).message}`);
    }
    const bbox = bboxOf(geometry);
    if (!(bbox[0] >= BC.west && bbox[2] <= BC.east && bbox[1] >= BC.south && bbox[3] <= BC.north)) {
      refuse(`geometry lies outside British Columbia (${bbox.map((v) => v.toFixed(5)).join(', ')}): is it EPSG:4326, longitude first?`);
    }
    const point = interiorPoint(geometry) ?? refuse('geometry has no area');
    const area = values.area_sqm === null ? null : Number(values.area_sqm);
    parcels.push({
      id: `svc:parcels:bc:${polyId}`,
      pid: `${pid.slice(0, 3)}-${pid.slice(3, 6)}-${pid.slice(6)}`,
      name: values.name ?? '',
      planNumber: values.plan_number ?? '',
      municipality: values.municipality ?? '',
      regionalDistrict: values.regional_district ?? '',
      lng: point[0],
      lat: point[1],
      bbox,
      geometry,
      source: PARCELMAP_BC_SOURCE,
      sourceId: polyId,
      parcelClass: values.parcel_class ?? '',
      ownerType: values.owner_type ?? '',
      status: values.status ?? '',
      areaSqm: area !== null && Number.isFinite(area) ? area : null,
    });
  }
  return { rows: rows.length, parcels, withoutPid };
}
