/**
 * Transit releases built and opened by tests through the real builder and opener: a manifest of
 * just what the opener reads, a build into a staging folder, and a copy of a built database
 * changed by SQL (a release of an older schema) opened as the API would.
 */
import { copyFile, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { TransitData } from '../../engines/transit/data.ts';
import { openTransitRelease } from '../../engines/transit/release.ts';
import { prepareTransitRelease } from '../../ingest/transit/release.ts';
import type { BuildOutcome } from '../../releases/publish.ts';
import type { Manifest } from '../../schemas/manifest.ts';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';

/** What openTransitRelease reads of a manifest. */
export const testManifest = (id: string) => ({ id, created_at: '2026-01-01T00:00:00Z', content_hash: 'test' }) as unknown as Manifest;

/** Builds the feeds into a new staging folder under `root` (work files in root/work-<name>). */
export async function buildTransitRelease(root: string, name: string, feeds: { id: string; source: string }[]): Promise<{ outcome: BuildOutcome; staging: string }> {
  const spec = await prepareTransitRelease(
    feeds.map((f) => ({ ...f, licence: 'test', attribution: 'test' })),
    { workDir: path.join(root, `work-${name}`), fetchTimeoutMs: 5000, maxDownloadBytes: 50 * 1024 * 1024 },
  );
  const dir = await mkdtemp(path.join(root, `staging-${name}-`));
  return { outcome: await spec.build(dir), staging: dir };
}

/** Opens a copy (under `root`) of the built database in `staging` after running `statements` on it. */
export async function openChangedCopy(root: string, staging: string, name: string, statements: string[]): Promise<TransitData> {
  const dir = await mkdtemp(path.join(root, `${name}-`));
  await copyFile(path.join(staging, TRANSIT_DATABASE_FILE), path.join(dir, TRANSIT_DATABASE_FILE));
  const instance = await DuckDBInstance.create(path.join(dir, TRANSIT_DATABASE_FILE));
  const connection = await instance.connect();
  try {
    for (const sql of statements) await connection.run(sql);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return openTransitRelease(dir, testManifest(name));
}
