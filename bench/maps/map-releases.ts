/**
 * The releases a map draws from, built as their jobs build them (prepare → publish → enable) on
 * a test environment: the basemap from the Pelias Vancouver extract, the assets (glyphs,
 * sprites) and the demo catalog (the styles' overlays).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { prepareAssetsRelease } from '../../ingest/assets/release.ts';
import { prepareBasemapRelease } from '../../ingest/basemap/release.ts';
import { prepareCatalogRelease } from '../../ingest/catalog/release.ts';
import type { Pool } from '../../lib/postgres.ts';
import { publishRelease, type PublishSpec } from '../../releases/publish.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { repoPath, sharedData } from '../../test/support/paths.ts';

export interface MapReleases {
  basemap: RegisteredRelease;
  assets: RegisteredRelease;
  catalog: RegisteredRelease;
  /** Seconds each took to prepare and publish. */
  seconds: Record<'basemap' | 'assets' | 'catalog', number>;
}

async function publishEnabled(pool: Pool, releasesDir: string, prepare: (workDir: string) => Promise<PublishSpec>): Promise<{ release: RegisteredRelease; seconds: number }> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-maps-work-'));
  const started = performance.now();
  try {
    const { release } = await publishRelease({ pool, releasesDir }, await prepare(workDir));
    await enableRelease(pool, release.id, 'bench/maps');
    return { release, seconds: (performance.now() - started) / 1000 };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

export async function publishMapReleases(pool: Pool, releasesDir: string): Promise<MapReleases> {
  const sources = {
    pbf: sharedData('osm/pelias-vancouver_canada.osm.pbf'),
    provinces: sharedData('geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson'),
  };
  const basemap = await publishEnabled(pool, releasesDir, (workDir) => prepareBasemapRelease(sources, { workDir }));
  const assets = await publishEnabled(pool, releasesDir, () => prepareAssetsRelease());
  const catalog = await publishEnabled(pool, releasesDir, (workDir) => prepareCatalogRelease(repoPath('samples/catalog/demo.catalog.json'), { workDir }));
  return {
    basemap: basemap.release, assets: assets.release, catalog: catalog.release,
    seconds: { basemap: basemap.seconds, assets: assets.seconds, catalog: catalog.seconds },
  };
}
