import { ENERGY_SOURCES } from '../../schemas/energy-release.ts';
import { InvalidInputError } from '../errors.ts';
import { planColumns, type ColumnPlan } from './csv-rows.ts';

export type WellField = 'uwi' | 'name' | 'licence' | 'operator' | 'status' | 'lat' | 'lng' | 'source_id';

export interface WellForm {
  source: string;
  label: string;
  plan: ColumnPlan<WellField>;
}

/*
 * Header spellings, compared as headerKey() keys. The AER's ST37 is published as fixed-width TXT
 * and PDF; its CSV form here uses the ST37 field names (UWI, well name, licence number, licensee,
 * status) plus surface coordinates as in the AER's well shapefile, since ST37 itself has none.
 * The BC form follows BCER's wells.csv (WA Num, Well Name, Oper Abbrev, Surf Nad83 Lat/Long)
 * plus UWI and status, which BCER publishes in its well lists. See samples/energy/README.md.
 */
const ST37: Record<WellField, readonly string[]> = {
  uwi: ['uwi', 'uwi_display_format', 'unique_well_identifier'],
  name: ['well_name'],
  licence: ['licence_number', 'license_number', 'licence_no', 'license_no', 'licence'],
  operator: ['licensee_name', 'licensee', 'operator_name', 'operator'],
  status: ['well_status', 'licence_status', 'license_status', 'status'],
  lat: ['surface_latitude', 'latitude'],
  lng: ['surface_longitude', 'longitude'],
  source_id: ['uwi', 'uwi_display_format', 'unique_well_identifier'],
};

const BCER: Record<WellField, readonly string[]> = {
  uwi: ['uwi'],
  name: ['well_name'],
  licence: ['wa_num', 'wa_number', 'well_authorization_number'],
  operator: ['oper_abbrev', 'operator', 'operator_name', 'oper_abbreviation'],
  status: ['well_status', 'status', 'current_status'],
  lat: ['surf_nad83_lat', 'surface_latitude'],
  lng: ['surf_nad83_long', 'surface_longitude'],
  source_id: ['wa_num', 'wa_number', 'well_authorization_number'],
};

const REQUIRED: readonly WellField[] = ['uwi', 'name', 'licence', 'operator', 'lat', 'lng'];

/** The published form of a wells CSV, told by its header; refuses a header of neither form. */
export function wellForm(file: string, keys: readonly string[]): WellForm {
  const isBc = BCER.licence.some((k) => keys.includes(k));
  if (!isBc && !ST37.uwi.some((k) => keys.includes(k))) {
    throw new InvalidInputError(
      `wells file ${file} is in neither well form: expected the AER ST37 columns (UWI, Well Name, Licence Number, Licensee Name, ` +
        'Well Status, Surface Latitude, Surface Longitude) or the BCER ones (WA Num, UWI, Well Name, Oper Abbrev, Well Status, Surf Nad83 Lat, Surf Nad83 Long)',
    );
  }
  const spellings = isBc ? BCER : ST37;
  const form: WellForm = isBc
    ? { source: ENERGY_SOURCES.bcerWells, label: 'BC Energy Regulator well list', plan: planColumns(keys, BCER) }
    : { source: ENERGY_SOURCES.aerWells, label: 'AER ST37 list of wells', plan: planColumns(keys, ST37) };
  const missing = REQUIRED.filter((field) => form.plan[field] === null);
  if (missing.length) {
    throw new InvalidInputError(`wells file ${file} (${form.label} form) lacks the column(s) ${missing.map((f) => spellings[f][0]).join(', ')}`);
  }
  return form;
}
