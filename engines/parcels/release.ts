import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDuckDb } from '../../lib/duckdb.ts';
import { queryRows } from '../../lib/duckdb-rows.ts';
import type { KindOpener } from '../../releases/reader.ts';
import type { Manifest } from '../../schemas/manifest.ts';
import { PARCELS_DATABASE_FILE, PARCELS_KIND } from '../../schemas/parcels-release.ts';
import type { ParcelCorpus, ParcelRecord } from './records.ts';

export type { ParcelCorpus, ParcelRecord } from './records.ts';

type Row = Record<string, string | number>;

/** An open parcels release: every parcel in memory, by PID. */
export class ParcelData implements ParcelCorpus {
  readonly province = 'BC';
  private readonly byDigits = new Map<string, ParcelRecord[]>();

  constructor(
    readonly releaseId: string,
    readonly parcels: readonly ParcelRecord[],
  ) {
    for (const parcel of parcels) {
      const key = parcel.pid.replace(/-/g, '');
      const list = this.byDigits.get(key);
      if (list) list.push(parcel);
      else this.byDigits.set(key, [parcel]);
    }
  }

  byPid(pid: string): ParcelRecord[] {
    return [...(this.byDigits.get(pid.replace(/[\s-]/g, '')) ?? [])];
  }
}

const formatPid = (digits: string) => `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;

/**
 * Opens a parcels release: reads parcels.duckdb READ_ONLY once into memory (geometry parsed once,
 * a lookup is then a map access) and closes it.
 */
export async function openParcelsRelease(dir: string, manifest: Manifest): Promise<ParcelCorpus> {
  const spillDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-parcels-open-'));
  try {
    const { connection, close } = await openDuckDb(path.join(dir, PARCELS_DATABASE_FILE), { readOnly: true, memoryLimit: '512MB', tempDirectory: spillDir });
    try {
      const rows = await queryRows<Row>(connection, 'SELECT * FROM parcels ORDER BY pid, id');
      return new ParcelData(manifest.id, rows.map((r): ParcelRecord => ({
        id: String(r.id),
        pid: formatPid(String(r.pid)),
        name: String(r.name),
        planNumber: String(r.plan_number),
        municipality: String(r.municipality),
        regionalDistrict: String(r.regional_district),
        lng: Number(r.lng),
        lat: Number(r.lat),
        bbox: [Number(r.west), Number(r.south), Number(r.east), Number(r.north)],
        geometry: JSON.parse(String(r.geometry)) as GeoJSON.Polygon | GeoJSON.MultiPolygon,
        source: String(r.source),
        sourceId: String(r.source_id),
      })));
    } finally {
      close();
    }
  } finally {
    await rm(spillDir, { recursive: true, force: true });
  }
}

/** The release-kind opener the API's release store uses for kind 'parcels'. */
export const parcelsOpener: KindOpener<ParcelCorpus> = {
  kind: PARCELS_KIND,
  open: openParcelsRelease,
  // everything lives in memory and DuckDB is already closed
  close: async (_corpus: ParcelCorpus): Promise<void> => {},
};
