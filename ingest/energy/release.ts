import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FacilityRecord, WellRecord } from '../../engines/energy/records.ts';
import { openDuckDb } from '../../lib/duckdb.ts';
import { sha256File } from '../../releases/checksum.ts';
import type { PublishSpec } from '../../releases/publish.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { ENERGY_KIND, ENERGY_SCHEMA_VERSION } from '../../schemas/energy-release.ts';
import { InvalidInputError } from '../errors.ts';
import { checkInputPath } from './csv-rows.ts';
import { readFacilityFile } from './facilities.ts';
import { readWellFile } from './wells.ts';
import { writeEnergyDatabase } from './write.ts';

export const ENERGY_BUILDER_VERSION = 'energy-1';

/** What the manifest says of every energy input: the published form it was read in. */
const INPUT_NOTE =
  'read in the published CSV form of its registry (AER ST37 or BCER well list; AER ST102 facilities); ' +
  'the bundled samples are written by this project and are not registry data';

export interface EnergyInputs {
  wells: readonly string[];
  facilities: readonly string[];
}

const countBy = <T>(items: readonly T[], key: (item: T) => string) =>
  items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {});

/**
 * Well and facility CSVs → a PublishSpec of an energy release (energy.duckdb). Every file is read
 * and checked here, before anything is staged: a bad row refuses the job (InvalidInputError) and
 * no release directory is ever made of it.
 */
export async function prepareEnergyRelease(files: EnergyInputs): Promise<PublishSpec> {
  if (files.wells.length === 0 && files.facilities.length === 0) throw new InvalidInputError('give at least one --wells or --facilities file');
  const inputs: ManifestInput[] = [];
  let wells: WellRecord[] = [];
  let facilities: FacilityRecord[] = [];
  const wellFiles: { file: string; form: string; rows: number }[] = [];
  const spillDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-energy-read-'));
  try {
    const db = await openDuckDb(':memory:', { memoryLimit: '1GB', tempDirectory: spillDir, threads: 1 });
    try {
      for (const file of files.wells) {
        await checkInputPath('wells', file);
        const read = await readWellFile(db.connection, file);
        wells = wells.concat(read.wells);
        wellFiles.push({ file: path.basename(file), form: read.form, rows: read.rows });
        inputs.push({ name: `wells/${inputs.length}/${path.basename(file)}`, source: file, sha256: await sha256File(file), attribution: INPUT_NOTE });
      }
      for (const file of files.facilities) {
        await checkInputPath('facilities', file);
        facilities = facilities.concat((await readFacilityFile(db.connection, file)).facilities);
        inputs.push({ name: `facilities/${inputs.length}/${path.basename(file)}`, source: file, sha256: await sha256File(file), attribution: INPUT_NOTE });
      }
    } finally {
      db.close();
    }
  } finally {
    await rm(spillDir, { recursive: true, force: true });
  }
  const repeated = facilities.find((f, i) => facilities.findIndex((g) => g.facilityId === f.facilityId) !== i);
  if (repeated) throw new InvalidInputError(`facility ${repeated.facilityId} is in more than one facilities file`);
  let held: { wells: WellRecord[]; facilities: FacilityRecord[] } | null = { wells, facilities };
  return {
    kind: ENERGY_KIND,
    builderVersion: ENERGY_BUILDER_VERSION,
    schemaVersion: ENERGY_SCHEMA_VERSION,
    inputs,
    async build(stagingDir) {
      if (!held) throw new Error('the energy inputs were already disposed of');
      await writeEnergyDatabase(stagingDir, held.wells, held.facilities);
      return {
        stats: {
          wells: held.wells.length,
          wells_by_province: countBy(held.wells, (w) => w.province),
          wells_by_system: countBy(held.wells, (w) => ({ 1: 'DLS', 2: 'NTS', 3: 'FPS', 4: 'GEODETIC' })[w.compact[0] as '1'] ?? 'other'),
          well_files: wellFiles,
          facilities: held.facilities.length,
          facilities_by_province: countBy(held.facilities, (f) => f.province),
          notes: `Every input was ${INPUT_NOTE}.`,
        },
      };
    },
    async dispose() {
      held = null;
    },
  };
}
