import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';

export interface ZipEntrySpec {
  name: string;
  data: Buffer | string;
  /** 'deflate' by default. */
  method?: 'store' | 'deflate';
  /** Uncompressed size written in the headers (to build zips that lie about it). */
  declaredSize?: number;
}

/**
 * Writes a zip byte by byte, so tests can build archives no zip tool would: entries named
 * `../x` or `/etc/x`, headers that understate the inflated size, and so on.
 */
export async function writeZip(file: string, entries: ZipEntrySpec[]): Promise<void> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8');
    const deflate = (entry.method ?? 'deflate') === 'deflate';
    const packed = deflate ? deflateRawSync(raw) : raw;
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? raw.length;
    const crc = entry.declaredSize === undefined ? crc32(raw) : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const centralBytes = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  await writeFile(file, Buffer.concat([...locals, centralBytes, end]));
}

/** GTFS files as text, keyed by file name (e.g. "stops.txt"). */
export type FeedTexts = Record<string, string>;

export interface SmallFeedOptions {
  timezone?: string;
  /** GTFS departure time of the one trip's first stop. */
  departure?: string;
  /** calendar.txt service window and weekdays (all days by default). */
  startDate?: string;
  endDate?: string;
}

/** A valid one-agency, two-stop, one-trip feed; tests edit single files of it to break it. */
export function smallFeed(opts: SmallFeedOptions = {}): FeedTexts {
  const tz = opts.timezone ?? 'America/Toronto';
  const departure = opts.departure ?? '08:00:00';
  return {
    'agency.txt': `agency_id,agency_name,agency_url,agency_timezone\nA1,Test Transit,https://example.org,${tz}\n`,
    'stops.txt': 'stop_id,stop_name,stop_lat,stop_lon\nS1,First,45.0,-75.0\nS2,Second,45.1,-75.1\n',
    'routes.txt': 'route_id,agency_id,route_short_name,route_type\nR1,A1,1,3\n',
    'trips.txt': 'route_id,service_id,trip_id,trip_headsign\nR1,DAILY,T1,Second\n',
    'stop_times.txt': `trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,${departure},${departure},S1,1\nT1,23:59:00,23:59:00,S2,2\n`,
    'calendar.txt': `service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAILY,1,1,1,1,1,1,1,${opts.startDate ?? '20260301'},${opts.endDate ?? '20260331'}\n`,
  };
}

export async function writeFeedDir(dir: string, feed: FeedTexts): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(feed)) await writeFile(path.join(dir, name), text);
  return dir;
}

export async function writeFeedZip(file: string, feed: FeedTexts, folder = ''): Promise<string> {
  await writeZip(file, Object.entries(feed).map(([name, data]) => ({ name: `${folder}${name}`, data })));
  return file;
}

export interface TransitReader {
  query<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  close(): void;
}

/** Opens a built transit.duckdb READ_ONLY, as the API does. */
export async function openTransit(dbFile: string): Promise<TransitReader> {
  const instance = await DuckDBInstance.create(dbFile, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  return {
    async query<T>(sql: string) {
      return (await connection.runAndReadAll(sql)).getRowObjectsJS() as T[];
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
