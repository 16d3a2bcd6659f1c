import path from 'node:path';
import { version as duckdbVersion } from '@duckdb/node-api';
import { assembleIndex } from '../../engines/geocoding/index/assemble.ts';
import { writeIndexFile } from '../../engines/geocoding/index/file.ts';
import { openDuckDb } from '../../lib/duckdb.ts';
import { sha256File } from '../../releases/checksum.ts';
import type { PublishSpec } from '../../releases/publish.ts';
import { GEOCODER_INDEX_FILE, GEOCODING_DATABASE_FILE, GEOCODING_KIND, GEOCODING_SCHEMA_VERSION } from '../../schemas/geocoding-release.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { buildInChildProcess } from './build-process.ts';
import { buildCorpus } from './build/corpus.ts';
import { writeReleaseTables } from './build/release-tables.ts';
import { INPUT_TERMS, orderInputs, type GeocodingInput } from './inputs.ts';

export const GEOCODING_BUILDER_VERSION = `geocoding-2+duckdb-${duckdbVersion().replace(/^v/, '')}`;

/** DuckDB of a geocoding build: sorts and window functions over national data spill past this. */
const DUCKDB_LIMITS = { memoryLimit: '4GB', threads: 2 };

export interface GeocodingReleaseOptions {
  workDir: string;
  /** Heap limit of the build's child process (GEOCODING_BUILD_HEAP_MB). */
  heapMb: number;
  onProgress?: (fraction: number, message: string) => void;
}

/** The inputs of a geocoding build → a PublishSpec (hash over every input's content and terms). */
export async function prepareGeocodingRelease(inputs: GeocodingInput[], options: GeocodingReleaseOptions): Promise<PublishSpec> {
  const ordered = orderInputs(inputs);
  const manifestInputs: ManifestInput[] = [];
  for (const [i, input] of ordered.entries()) {
    const terms = INPUT_TERMS[input.kind];
    manifestInputs.push({
      name: `${input.kind}-${i + 1}`,
      source: input.path,
      sha256: await sha256File(input.path),
      licence: terms.licence,
      attribution: terms.attribution,
    });
  }
  return {
    kind: GEOCODING_KIND,
    builderVersion: GEOCODING_BUILDER_VERSION,
    schemaVersion: GEOCODING_SCHEMA_VERSION,
    inputs: manifestInputs,
    async build(stagingDir) {
      const request = { inputs: ordered, stagingDir, workDir: options.workDir };
      const stats = await buildInChildProcess(request, options.heapMb, options.onProgress ?? (() => {}));
      return { stats };
    },
  };
}

/** Writes the release's files into stagingDir (runs in the build's child process). */
export async function buildGeocodingRelease(
  inputs: GeocodingInput[],
  stagingDir: string,
  workDir: string,
  onProgress: (fraction: number, message: string) => void,
): Promise<Record<string, unknown>> {
  const db = await openDuckDb(path.join(stagingDir, GEOCODING_DATABASE_FILE), { ...DUCKDB_LIMITS, tempDirectory: path.join(workDir, 'duckdb-tmp') });
  try {
    const { corpus, stats } = await buildCorpus(db.connection, inputs, (f, m) => onProgress(f * 0.85, m));
    onProgress(0.86, 'writing the release database');
    await writeReleaseTables(db.connection, corpus);
    onProgress(0.9, 'assembling the query index');
    await writeIndexFile(path.join(stagingDir, GEOCODER_INDEX_FILE), assembleIndex(corpus));
    await db.connection.run('CHECKPOINT');
    onProgress(1, 'built');
    return stats;
  } finally {
    db.close();
  }
}
