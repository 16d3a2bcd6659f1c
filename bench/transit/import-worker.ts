/**
 * One import in its own process, so the parent can measure its wall time and peak RSS alone.
 *   node --import tsx bench/transit/import-worker.ts <canmap|gtfs> <feed zip or dir> <scratch dir>
 * Prints one JSON line: {tool, seconds, stopTimes, peakRssBytes}.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { prepareTransitRelease } from '../../ingest/gtfs/release.ts';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';

async function peakRssBytes(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

async function importWithCanmap(feed: string, scratch: string): Promise<number> {
  const workDir = path.join(scratch, 'work');
  const stagingDir = path.join(scratch, 'staging');
  await mkdir(stagingDir, { recursive: true });
  const spec = await prepareTransitRelease([{ id: 'bench', source: feed, licence: 'bench', attribution: 'bench' }], {
    workDir, fetchTimeoutMs: 60_000, maxDownloadBytes: 4 * 1024 ** 3,
  });
  const outcome = await spec.build(stagingDir);
  if (!(await readFile(path.join(stagingDir, TRANSIT_DATABASE_FILE)).then(() => true, () => false))) throw new Error('no transit.duckdb written');
  return Number(outcome.stats.stop_times);
}

async function importWithGtfs(feed: string, scratch: string): Promise<number> {
  const { importGtfs, openDb, closeDb } = await import('gtfs');
  const config = { agencies: [{ path: feed }], sqlitePath: path.join(scratch, 'gtfs.sqlite'), verbose: false };
  await importGtfs(config);
  const db = openDb(config);
  const row = db.prepare('SELECT count(*) AS n FROM stop_times').get() as { n: number };
  closeDb(db);
  return row.n;
}

const [tool, feed, scratch] = process.argv.slice(2);
if (!tool || !feed || !scratch) throw new Error('usage: import-worker.ts <canmap|gtfs> <feed> <scratch dir>');
await mkdir(scratch, { recursive: true });
const started = performance.now();
const stopTimes = tool === 'canmap' ? await importWithCanmap(feed, scratch) : await importWithGtfs(feed, scratch);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ tool, seconds, stopTimes, peakRssBytes: await peakRssBytes() }));
