import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDuckDb } from '../../lib/duckdb.ts';
import { sha256File } from '../../releases/checksum.ts';
import type { PublishSpec } from '../../releases/publish.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { PARCELS_KIND, PARCELS_SCHEMA_VERSION } from '../../schemas/parcels-release.ts';
import { checkInputPath } from '../energy/csv-rows.ts';
import { InvalidInputError } from '../errors.ts';
import { readParcelFile, type ParcelRow } from './parcels.ts';
import { writeParcelsDatabase } from './write.ts';

export const PARCELS_BUILDER_VERSION = 'parcels-1';

const INPUT_NOTE =
  "read in ParcelMap BC's published parcel-fabric CSV form (BC Data Catalogue export, WKT in EPSG:4326); " +
  'the bundled sample is written by this project and is not ParcelMap BC data';

/**
 * Parcel-fabric CSVs → a PublishSpec of a parcels release (parcels.duckdb). Every file is read and
 * checked here, before anything is staged: a bad row refuses the job and leaves no release.
 */
export async function prepareParcelsRelease(files: readonly string[]): Promise<PublishSpec> {
  if (files.length === 0) throw new InvalidInputError('give at least one --parcels file');
  const inputs: ManifestInput[] = [];
  let parcels: ParcelRow[] = [];
  let rows = 0;
  let withoutPid = 0;
  const spillDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-parcels-read-'));
  try {
    const db = await openDuckDb(':memory:', { memoryLimit: '1GB', tempDirectory: spillDir, threads: 1 });
    try {
      for (const file of files) {
        await checkInputPath('parcels', file);
        const read = await readParcelFile(db.connection, file);
        parcels = parcels.concat(read.parcels);
        rows += read.rows;
        withoutPid += read.withoutPid;
        inputs.push({ name: `parcels/${inputs.length}/${path.basename(file)}`, source: file, sha256: await sha256File(file), attribution: INPUT_NOTE });
      }
    } finally {
      db.close();
    }
  } finally {
    await rm(spillDir, { recursive: true, force: true });
  }
  const ids = new Set<string>();
  for (const parcel of parcels) {
    if (ids.has(parcel.id)) throw new InvalidInputError(`parcel ${parcel.sourceId} is in more than one parcels file`);
    ids.add(parcel.id);
  }
  let held: ParcelRow[] | null = parcels;
  return {
    kind: PARCELS_KIND,
    builderVersion: PARCELS_BUILDER_VERSION,
    schemaVersion: PARCELS_SCHEMA_VERSION,
    inputs,
    async build(stagingDir) {
      if (!held) throw new Error('the parcels inputs were already disposed of');
      await writeParcelsDatabase(stagingDir, held);
      const bounds = held.reduce<[number, number, number, number]>(
        (b, p) => [Math.min(b[0], p.bbox[0]), Math.min(b[1], p.bbox[1]), Math.max(b[2], p.bbox[2]), Math.max(b[3], p.bbox[3])],
        [Infinity, Infinity, -Infinity, -Infinity],
      );
      return {
        stats: {
          rows,
          parcels: held.length,
          without_pid: withoutPid,
          distinct_pids: new Set(held.map((p) => p.pid)).size,
          notes: `Every input was ${INPUT_NOTE}. Rows without a PID (Crown land without title) are counted, not served.`,
        },
        ...(held.length ? { coverage: [{ province: 'BC', bounds }] } : {}),
      };
    },
    async dispose() {
      held = null;
    },
  };
}
