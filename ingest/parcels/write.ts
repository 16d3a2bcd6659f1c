import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDuckDb } from '../../lib/duckdb.ts';
import { PARCELS_DATABASE_FILE, PARCELS_TABLES_DDL } from '../../schemas/parcels-release.ts';
import type { ParcelRow } from './parcels.ts';

const key = (p: ParcelRow) => `${p.pid}\u0000${p.id}`;

/** Writes parcels.duckdb into the staging directory, sorted by PID. */
export async function writeParcelsDatabase(stagingDir: string, parcels: readonly ParcelRow[]): Promise<void> {
  const spillDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-parcels-build-'));
  try {
    const db = await openDuckDb(path.join(stagingDir, PARCELS_DATABASE_FILE), { memoryLimit: '512MB', tempDirectory: spillDir, threads: 1 });
    try {
      await db.connection.run(PARCELS_TABLES_DDL);
      const appender = await db.connection.createAppender('parcels');
      for (const p of [...parcels].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))) {
        const texts = [p.id, p.pid.replace(/-/g, ''), p.name, p.planNumber, p.municipality, p.regionalDistrict, p.parcelClass, p.ownerType, p.status];
        for (const text of texts) appender.appendVarchar(text);
        if (p.areaSqm === null) appender.appendNull();
        else appender.appendDouble(p.areaSqm);
        for (const value of [p.lng, p.lat, ...p.bbox]) appender.appendDouble(value);
        appender.appendVarchar(JSON.stringify(p.geometry));
        appender.appendVarchar(p.source);
        appender.appendVarchar(p.sourceId);
        appender.endRow();
      }
      appender.closeSync();
      await db.connection.run('CHECKPOINT');
    } finally {
      db.close();
    }
  } finally {
    await rm(spillDir, { recursive: true, force: true });
  }
}
