import type { DuckDBConnection } from '@duckdb/node-api';
import type { WellRecord } from '../../engines/energy/records.ts';
import { parseUwi, UwiParseError } from '../../engines/energy/uwi.ts';
import { ENERGY_SOURCES } from '../../schemas/energy-release.ts';
import { InvalidInputError } from '../errors.ts';
import { csvHeaderKeys, readCsvRows } from './csv-rows.ts';
import { coordinate, inWesternCanada, provinceAt } from './region.ts';
import { wellForm } from './well-forms.ts';

export interface WellFile {
  form: string;
  rows: number;
  wells: WellRecord[];
}

/**
 * Reads one wells CSV (either published form) into records. Any bad row refuses the whole file,
 * naming the row and what is wrong with it (for a UWI, the part at fault): a well list is never
 * published partially.
 */
export async function readWellFile(connection: DuckDBConnection, file: string): Promise<WellFile> {
  const form = wellForm(file, await csvHeaderKeys(file));
  const rows = await readCsvRows(connection, file, form.plan, 'wells');
  const seen = new Map<string, number>();
  const wells = rows.map(({ row, values }): WellRecord => {
    const refuse = (why: string): never => {
      throw new InvalidInputError(`wells file ${file} (${form.label} form), data row ${row}: ${why}`);
    };
    if (!values.uwi) refuse('no UWI');
    let uwi;
    try {
      uwi = parseUwi(values.uwi!);
    } catch (err) {
      if (err instanceof UwiParseError) refuse(`UWI ${JSON.stringify(values.uwi)} (${err.part}): ${err.message}`);
      throw err;
    }
    const earlier = seen.get(uwi.compact);
    if (earlier !== undefined) refuse(`UWI ${uwi.canonical} is also on data row ${earlier}`);
    seen.set(uwi.compact, row);
    const lat = coordinate(values.lat);
    const lng = coordinate(values.lng);
    if (lat === null || lng === null) refuse(`surface latitude/longitude ${JSON.stringify(values.lat)}, ${JSON.stringify(values.lng)} are not decimal degrees`);
    if (!inWesternCanada(lng!, lat!)) refuse(`surface location ${lat}, ${lng} is outside Alberta, BC and Saskatchewan`);
    if (!values.name) refuse('no well name');
    const province = form.source === ENERGY_SOURCES.bcerWells || uwi.system === 'NTS' ? 'BC' : provinceAt(lng!);
    const sourceId = values.source_id ?? uwi.compact;
    return {
      kind: 'well',
      id: `svc:energy:well:${form.source}:${uwi.compact}`,
      uwi: uwi.canonical,
      compact: uwi.compact,
      name: values.name!,
      licence: values.licence ?? '',
      operator: values.operator ?? '',
      status: values.status ?? '',
      province,
      lng: lng!,
      lat: lat!,
      source: form.source,
      sourceId,
    };
  });
  return { form: form.source, rows: rows.length, wells };
}
