import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDuckDb } from '../../lib/duckdb.ts';
import { queryRows } from '../../lib/duckdb-rows.ts';
import type { KindOpener } from '../../releases/reader.ts';
import type { Manifest } from '../../schemas/manifest.ts';
import { ENERGY_DATABASE_FILE, ENERGY_KIND } from '../../schemas/energy-release.ts';
import { EnergyData } from './corpus.ts';
import type { EnergyCorpus, FacilityRecord, WellRecord } from './records.ts';

export type { EnergyCorpus, EnergyRecord, EnergySearchOptions, FacilityRecord, WellRecord } from './records.ts';

type Row = Record<string, string | number>;

/**
 * Opens an energy release: reads energy.duckdb READ_ONLY once into memory (a province's wells are
 * some hundred thousand small records; a lookup is then a map access, not a query) and closes it.
 */
export async function openEnergyRelease(dir: string, manifest: Manifest): Promise<EnergyCorpus> {
  // a query that spills would otherwise write energy.duckdb.tmp/ into the immutable release dir
  const spillDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-energy-open-'));
  try {
    const { connection, close } = await openDuckDb(path.join(dir, ENERGY_DATABASE_FILE), { readOnly: true, memoryLimit: '512MB', tempDirectory: spillDir });
    try {
      const wells = (await queryRows<Row>(connection, 'SELECT * FROM wells ORDER BY compact, id')).map((r): WellRecord => ({
        kind: 'well', id: String(r.id), uwi: String(r.uwi), compact: String(r.compact), name: String(r.name),
        licence: String(r.licence), operator: String(r.operator), status: String(r.status), province: String(r.province),
        lng: Number(r.lng), lat: Number(r.lat), source: String(r.source), sourceId: String(r.source_id),
      }));
      const facilities = (await queryRows<Row>(connection, 'SELECT * FROM facilities ORDER BY facility_id, id')).map((r): FacilityRecord => ({
        kind: 'facility', id: String(r.id), facilityId: String(r.facility_id), name: String(r.name), licence: String(r.licence),
        operator: String(r.operator), status: String(r.status), facilityType: String(r.facility_type), province: String(r.province),
        lng: Number(r.lng), lat: Number(r.lat), source: String(r.source), sourceId: String(r.source_id),
      }));
      return new EnergyData(manifest.id, wells, facilities);
    } finally {
      close();
    }
  } finally {
    await rm(spillDir, { recursive: true, force: true });
  }
}

/** The release-kind opener the API's release store uses for kind 'energy'. */
export const energyOpener: KindOpener<EnergyCorpus> = {
  kind: ENERGY_KIND,
  open: openEnergyRelease,
  // everything lives in memory and DuckDB is already closed
  close: async (_corpus: EnergyCorpus): Promise<void> => {},
};
