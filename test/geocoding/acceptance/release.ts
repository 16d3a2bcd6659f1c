/**
 * The release the acceptance cases run against: built by the real pipeline
 * (prepareGeocodingRelease) from the real inputs plus the fixtures beside this file, published
 * and enabled in a test environment, served by the whole API (GeocodingApiStack).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeocodingInput } from '../../../ingest/geocoding/inputs.ts';
import { prepareGeocodingRelease } from '../../../ingest/geocoding/release.ts';
import { publishRelease } from '../../../releases/publish.ts';
import { enableRelease } from '../../../releases/registry.ts';
import { GeocodingApiStack } from '../../support/geocoding-api-stack.ts';
import { DATA } from './source-data.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export const FIXTURES = {
  oda: path.join(HERE, 'fixtures', 'addresses-oda.csv'),
  oa: path.join(HERE, 'fixtures', 'addresses-oa.csv'),
};

export function acceptanceInputs(): GeocodingInput[] {
  return [
    { kind: 'osm', path: path.resolve(DATA.osm) },
    { kind: 'localities', path: path.resolve(DATA.cities) },
    { kind: 'regions', path: path.resolve(DATA.provinces) },
    { kind: 'addresses-oda', path: FIXTURES.oda },
    { kind: 'addresses-oa', path: FIXTURES.oa },
  ];
}

export interface ServedRelease {
  stack: GeocodingApiStack;
  releaseId: string;
  buildStats: Record<string, unknown>;
  close(): Promise<void>;
}

/** Builds, publishes, enables and serves the acceptance release. */
export async function serveAcceptanceRelease(): Promise<ServedRelease> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-geocoding-acceptance-'));
  const stack = await GeocodingApiStack.create('geocoding_acceptance');
  try {
    const spec = await prepareGeocodingRelease(acceptanceInputs(), { workDir, heapMb: stack.env.config.geocodingBuildHeapMb });
    let buildStats: Record<string, unknown> = {};
    const { release } = await publishRelease({ pool: stack.pool, releasesDir: stack.env.config.releasesDir }, {
      ...spec,
      build: async (stagingDir) => {
        const outcome = await spec.build(stagingDir);
        buildStats = outcome.stats;
        return outcome;
      },
    });
    await enableRelease(stack.pool, release.id, 'geocoding acceptance', { allowShrink: true });
    await stack.start();
    await stack.waitForRelease(release.id);
    return {
      stack,
      releaseId: release.id,
      buildStats,
      async close() {
        await stack.close();
        await rm(workDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await stack.close();
    await rm(workDir, { recursive: true, force: true });
    throw err;
  }
}
