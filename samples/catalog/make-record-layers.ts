/**
 * Writes the catalog's energy.wells and survey.parcels sample layers (wells.ndjson,
 * parcels.ndjson) from the registry-form samples the energy and parcel corpora are built from
 * (samples/energy, samples/parcels), read by the same ingest readers, so the map and the
 * geocoder show the same wells and parcels: `node --import tsx samples/catalog/make-record-layers.ts`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readWellFile } from '../../ingest/energy/wells.ts';
import { readParcelFile } from '../../ingest/parcels/parcels.ts';
import { openDuckDb } from '../../lib/duckdb.ts';

const SAMPLES = path.resolve(import.meta.dirname, '..');
export const WELL_SAMPLES = ['wells-ab-st37.csv', 'wells-sk-st37.csv', 'wells-bc.csv'].map((f) => path.join(SAMPLES, 'energy', f));
export const PARCEL_SAMPLE = path.join(SAMPLES, 'parcels', 'parcels-abbotsford.csv');

type Feature = { type: 'Feature'; id: string; properties: Record<string, string>; geometry: GeoJSON.Geometry };

/** The features of both layers, in file and row order. */
export async function recordLayerFeatures(): Promise<{ wells: Feature[]; parcels: Feature[] }> {
  const spill = await mkdtemp(path.join(os.tmpdir(), 'canmap-sample-layers-'));
  const db = await openDuckDb(':memory:', { memoryLimit: '512MB', tempDirectory: spill, threads: 1 });
  try {
    const wells: Feature[] = [];
    for (const file of WELL_SAMPLES) {
      for (const w of (await readWellFile(db.connection, file)).wells) {
        wells.push({
          type: 'Feature', id: w.compact,
          properties: { name: w.name, uwi: w.uwi, licence: w.licence, operator: w.operator, status: w.status },
          geometry: { type: 'Point', coordinates: [w.lng, w.lat] },
        });
      }
    }
    const parcels = (await readParcelFile(db.connection, PARCEL_SAMPLE)).parcels.map((p): Feature => ({
      type: 'Feature', id: p.pid, properties: { name: p.name, pid: p.pid, plan_number: p.planNumber, municipality: p.municipality }, geometry: p.geometry,
    }));
    return { wells, parcels };
  } finally {
    db.close();
    await rm(spill, { recursive: true, force: true });
  }
}

const ndjson = (features: readonly Feature[]) => features.map((f) => JSON.stringify(f)).join('\n') + '\n';

if (process.argv[1] === import.meta.filename) {
  const { wells, parcels } = await recordLayerFeatures();
  await writeFile(path.join(import.meta.dirname, 'wells.ndjson'), ndjson(wells));
  await writeFile(path.join(import.meta.dirname, 'parcels.ndjson'), ndjson(parcels));
  console.log(`wrote ${wells.length} wells and ${parcels.length} parcels`);
}
