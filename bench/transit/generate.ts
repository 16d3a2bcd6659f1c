/**
 * Scales a real GTFS feed up for the import benchmark: every trip is replicated with a new id
 * (<trip_id>~<copy>) and its times shifted by a few minutes per copy, until stop_times has at
 * least --stop-times rows. Other files are copied unchanged. The result is a GTFS directory
 * under bench/out/ (gitignored).
 *
 *   node --import tsx bench/transit/generate.ts [--feed zip] [--stop-times 5000000] [--out dir]
 */
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { readCsvHeader } from '../../ingest/transit/csv-header.ts';
import { ident, lit } from '../../lib/duckdb.ts';
import { extractFeedZip } from '../../ingest/transit/unzip.ts';
import { sharedData } from '../../test/support/paths.ts';

export const DEFAULT_SOURCE_FEED = sharedData('gtfs/transitland-trimet-2routes.zip');
const BENCH_OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'out');

export interface GeneratedFeed {
  dir: string;
  copies: number;
  stopTimes: number;
  trips: number;
}

/** Shift of copy k, in seconds: 0..59 minutes, so copies interleave with the original service. */
const SHIFT_SQL = (copy: string) => `((${copy} * 7) % 60) * 60`;

function timeSql(column: string, copy: string): string {
  const secs = `(split_part(${column}, ':', 1)::INTEGER * 3600 + split_part(${column}, ':', 2)::INTEGER * 60 + split_part(${column}, ':', 3)::INTEGER + ${SHIFT_SQL(copy)})`;
  return `CASE WHEN nullif(trim(${column}), '') IS NULL THEN ${column} ELSE printf('%02d:%02d:%02d', ${secs} // 3600, (${secs} % 3600) // 60, ${secs} % 60) END`;
}

export async function generateScaledFeed(opts: { feed: string; stopTimes: number; out: string }): Promise<GeneratedFeed> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-gen-'));
  try {
    await extractFeedZip(opts.feed, scratch);
    await rm(opts.out, { recursive: true, force: true });
    await mkdir(opts.out, { recursive: true });
    const instance = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: '1GB' });
    const db = await instance.connect();
    try {
      const csv = (file: string, header: string[]) =>
        `read_csv(${lit(path.join(scratch, file))}, columns = {${header.map((h) => `${lit(h)}: 'VARCHAR'`).join(', ')}}, header = true, auto_detect = false, quote = '"', escape = '"', null_padding = true)`;
      const stopTimesHeader = await readCsvHeader(path.join(scratch, 'stop_times.txt'));
      const tripsHeader = await readCsvHeader(path.join(scratch, 'trips.txt'));
      const [countRow] = (await db.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${csv('stop_times.txt', stopTimesHeader)}`)).getRowObjectsJS() as { n: number }[];
      const copies = Math.ceil(opts.stopTimes / countRow!.n);
      const copy = 'c.k';
      const tripId = (col: string) => `CASE WHEN ${copy} = 0 THEN ${col} ELSE ${col} || '~' || ${copy} END`;

      const stopTimeColumns = stopTimesHeader.map((h) => {
        if (h === 'trip_id') return `${tripId('trip_id')} AS trip_id`;
        if (h === 'arrival_time' || h === 'departure_time') return `${timeSql(ident(h), copy)} AS ${ident(h)}`;
        return ident(h);
      });
      await db.run(`COPY (SELECT ${stopTimeColumns.join(', ')} FROM ${csv('stop_times.txt', stopTimesHeader)}, range(${copies}) c(k))
        TO ${lit(path.join(opts.out, 'stop_times.txt'))} (HEADER, DELIMITER ',')`);
      const tripColumns = tripsHeader.map((h) => (h === 'trip_id' ? `${tripId('trip_id')} AS trip_id` : ident(h)));
      await db.run(`COPY (SELECT ${tripColumns.join(', ')} FROM ${csv('trips.txt', tripsHeader)}, range(${copies}) c(k))
        TO ${lit(path.join(opts.out, 'trips.txt'))} (HEADER, DELIMITER ',')`);
      const [tripsRow] = (await db.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${csv('trips.txt', tripsHeader)}`)).getRowObjectsJS() as { n: number }[];

      for (const name of await readdir(scratch)) {
        if (name !== 'stop_times.txt' && name !== 'trips.txt') await copyFile(path.join(scratch, name), path.join(opts.out, name));
      }
      return { dir: opts.out, copies, stopTimes: countRow!.n * copies, trips: tripsRow!.n * copies };
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export function defaultScaledFeedDir(stopTimes: number): string {
  return path.join(BENCH_OUT, `trimet-${Math.round(stopTimes / 1e6)}m`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { feed: { type: 'string', default: DEFAULT_SOURCE_FEED }, 'stop-times': { type: 'string', default: '5000000' }, out: { type: 'string' } },
  });
  const stopTimes = Number(values['stop-times']);
  const started = performance.now();
  const result = await generateScaledFeed({ feed: values.feed!, stopTimes, out: values.out ?? defaultScaledFeedDir(stopTimes) });
  console.log(`${result.dir}: ${result.copies} copies, ${result.trips} trips, ${result.stopTimes} stop_times (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
