/**
 * One import in its own process, so the parent can measure its wall time and peak RSS alone.
 *   node --import tsx bench/transit/import-worker.ts <canmap|gtfs> <feed zip or dir> <scratch dir>
 * Prints one JSON line: {tool, seconds, stopTimes, peakRssBytes}.
 *
 * Both tools are timed over the same span: from the feed (zip or folder) on disk to a finished
 * database file, closed. Each tool's modules are loaded before the clock starts (the import of
 * DuckDB or better-sqlite3 is start-up, not import work), and the stop_times count used to check
 * the result is read after it stops.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';

async function peakRssBytes(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

interface Importer {
  /** The timed part: feed on disk → closed database file. */
  run(): Promise<void>;
  /** Untimed check of the result. */
  stopTimes(): Promise<number>;
}

async function canmapImporter(feed: string, scratch: string): Promise<Importer> {
  const { prepareTransitRelease } = await import('../../ingest/transit/release.ts');
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const workDir = path.join(scratch, 'work');
  const stagingDir = path.join(scratch, 'staging');
  await mkdir(stagingDir, { recursive: true });
  return {
    async run() {
      const spec = await prepareTransitRelease([{ id: 'bench', source: feed, licence: 'bench', attribution: 'bench' }], {
        workDir, fetchTimeoutMs: 60_000, maxDownloadBytes: 4 * 1024 ** 3,
      });
      await spec.build(stagingDir); // closes the database
    },
    async stopTimes() {
      const instance = await DuckDBInstance.create(path.join(stagingDir, TRANSIT_DATABASE_FILE), { access_mode: 'READ_ONLY' });
      try {
        const reader = await (await instance.connect()).runAndReadAll('SELECT count(*)::INTEGER AS n FROM stop_times');
        return (reader.getRowObjectsJS()[0] as { n: number }).n;
      } finally {
        instance.closeSync();
      }
    },
  };
}

async function gtfsImporter(feed: string, scratch: string): Promise<Importer> {
  const { importGtfs, openDb, closeDb } = await import('gtfs');
  const config = { agencies: [{ path: feed }], sqlitePath: path.join(scratch, 'gtfs.sqlite'), verbose: false };
  return {
    async run() {
      await importGtfs(config);
      closeDb(openDb(config)); // importGtfs leaves its database open
    },
    async stopTimes() {
      const db = openDb(config);
      try {
        return (db.prepare('SELECT count(*) AS n FROM stop_times').get() as { n: number }).n;
      } finally {
        closeDb(db);
      }
    },
  };
}

const [tool, feed, scratch] = process.argv.slice(2);
if (!tool || !feed || !scratch || (tool !== 'canmap' && tool !== 'gtfs')) throw new Error('usage: import-worker.ts <canmap|gtfs> <feed> <scratch dir>');
await mkdir(scratch, { recursive: true });
const importer = tool === 'canmap' ? await canmapImporter(feed, scratch) : await gtfsImporter(feed, scratch);
const started = performance.now();
await importer.run();
const seconds = (performance.now() - started) / 1000;
const peak = await peakRssBytes();
console.log(JSON.stringify({ tool, seconds, stopTimes: await importer.stopTimes(), peakRssBytes: peak }));
