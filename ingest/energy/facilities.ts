import type { DuckDBConnection } from '@duckdb/node-api';
import type { FacilityRecord } from '../../engines/energy/records.ts';
import { ENERGY_SOURCES } from '../../schemas/energy-release.ts';
import { InvalidInputError } from '../errors.ts';
import { csvHeaderKeys, planColumns, readCsvRows } from './csv-rows.ts';
import { QueryError } from '../../lib/query-error.ts';
import { legalLocationCentre } from './legal-location.ts';
import { coordinate, inWesternCanada } from './region.ts';

type FacilityField = 'facility_id' | 'name' | 'operator' | 'licence' | 'status' | 'sub_type' | 'location' | 'lat' | 'lng';

/*
 * The AER ST102 facility list (published as TXT and PDF) in CSV form: its field names, plus
 * latitude/longitude when the file has them. A facility without coordinates is placed at the
 * centre of its legal location (the LSD or quarter section the list gives, by the survey model).
 */
const ST102: Record<FacilityField, readonly string[]> = {
  facility_id: ['facility_id', 'facility_id_code', 'fac_id_code'],
  name: ['facility_name', 'fac_name'],
  operator: ['operator_name', 'licensee_name', 'operator', 'licensee'],
  licence: ['licence_number', 'license_number', 'licence_no', 'license_no', 'facility_licence'],
  status: ['facility_status', 'operational_status', 'status'],
  sub_type: ['facility_sub_type_description', 'facility_sub_type_desc', 'sub_type_description', 'facility_sub_type', 'sub_type'],
  location: ['facility_location', 'location', 'legal_location'],
  lat: ['latitude', 'facility_latitude', 'surface_latitude'],
  lng: ['longitude', 'facility_longitude', 'surface_longitude'],
};
const REQUIRED: readonly FacilityField[] = ['facility_id', 'name', 'operator'];
/** ABBT0012345: province, facility type, seven digits. */
const FACILITY_ID = /^(AB|BC|SK)[A-Z]{2}\d{7}$/;

export interface FacilityFile {
  rows: number;
  facilities: FacilityRecord[];
}

/** Reads one ST102-form facilities CSV; any bad row refuses the file, naming the row. */
export async function readFacilityFile(connection: DuckDBConnection, file: string): Promise<FacilityFile> {
  const plan = planColumns(await csvHeaderKeys(file), ST102);
  const missing = REQUIRED.filter((field) => plan[field] === null);
  if (missing.length) {
    throw new InvalidInputError(`facilities file ${file} (AER ST102 form) lacks the column(s) ${missing.map((f) => ST102[f][0]).join(', ')}`);
  }
  const rows = await readCsvRows(connection, file, plan, 'facilities');
  const seen = new Map<string, number>();
  const facilities = rows.map(({ row, values }): FacilityRecord => {
    const refuse = (why: string): never => {
      throw new InvalidInputError(`facilities file ${file} (AER ST102 form), data row ${row}: ${why}`);
    };
    const facilityId = (values.facility_id ?? '').toUpperCase().replace(/\s/g, '');
    if (!FACILITY_ID.test(facilityId)) refuse(`facility id ${JSON.stringify(values.facility_id)} is not like ABBT0012345`);
    const earlier = seen.get(facilityId);
    if (earlier !== undefined) refuse(`facility ${facilityId} is also on data row ${earlier}`);
    seen.set(facilityId, row);
    let lat = coordinate(values.lat);
    let lng = coordinate(values.lng);
    if (!values.lat && !values.lng && values.location) {
      try {
        [lng, lat] = legalLocationCentre(values.location);
      } catch (err) {
        if (!(err instanceof QueryError)) throw err;
        refuse(`no latitude/longitude, and ${err.message}`);
      }
    } else if (lat === null || lng === null) {
      refuse(`latitude/longitude ${JSON.stringify(values.lat)}, ${JSON.stringify(values.lng)} are not decimal degrees (or leave both empty to place the facility at its legal location)`);
    }
    if (!inWesternCanada(lng!, lat!)) refuse(`location ${lat}, ${lng} is outside Alberta, BC and Saskatchewan`);
    if (!values.name) refuse('no facility name');
    return {
      kind: 'facility',
      id: `svc:energy:facility:${facilityId}`,
      facilityId,
      name: values.name!,
      licence: values.licence ?? '',
      operator: values.operator ?? '',
      status: values.status ?? '',
      facilityType: values.sub_type ?? '',
      province: facilityId.slice(0, 2),
      lng: lng!,
      lat: lat!,
      source: ENERGY_SOURCES.aerFacilities,
      sourceId: facilityId,
    };
  });
  return { rows: rows.length, facilities };
}
