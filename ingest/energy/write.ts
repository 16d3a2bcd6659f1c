import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FacilityRecord, WellRecord } from '../../engines/energy/records.ts';
import { openDuckDb } from '../../lib/duckdb.ts';
import { ENERGY_DATABASE_FILE, ENERGY_TABLES_DDL } from '../../schemas/energy-release.ts';

const byKey = <T>(key: (item: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** Writes energy.duckdb into the staging directory: both tables, sorted by lookup key. */
export async function writeEnergyDatabase(stagingDir: string, wells: readonly WellRecord[], facilities: readonly FacilityRecord[]): Promise<void> {
  const spillDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-energy-build-'));
  try {
    const db = await openDuckDb(path.join(stagingDir, ENERGY_DATABASE_FILE), { memoryLimit: '512MB', tempDirectory: spillDir, threads: 1 });
    try {
      await db.connection.run(ENERGY_TABLES_DDL);
      const wellRows = [...wells].sort(byKey((w) => `${w.compact}\u0000${w.id}`));
      const appender = await db.connection.createAppender('wells');
      for (const w of wellRows) {
        for (const text of [w.id, w.uwi, w.compact, w.name, w.licence, w.operator, w.status, w.province]) appender.appendVarchar(text);
        appender.appendDouble(w.lng);
        appender.appendDouble(w.lat);
        appender.appendVarchar(w.source);
        appender.appendVarchar(w.sourceId);
        appender.endRow();
      }
      appender.closeSync();
      const facilityRows = [...facilities].sort(byKey((f) => `${f.facilityId}\u0000${f.id}`));
      const facilityAppender = await db.connection.createAppender('facilities');
      for (const f of facilityRows) {
        for (const text of [f.id, f.facilityId, f.name, f.licence, f.operator, f.status, f.facilityType, f.province]) facilityAppender.appendVarchar(text);
        facilityAppender.appendDouble(f.lng);
        facilityAppender.appendDouble(f.lat);
        facilityAppender.appendVarchar(f.source);
        facilityAppender.appendVarchar(f.sourceId);
        facilityAppender.endRow();
      }
      facilityAppender.closeSync();
      await db.connection.run('CHECKPOINT');
    } finally {
      db.close();
    }
  } finally {
    await rm(spillDir, { recursive: true, force: true });
  }
}
