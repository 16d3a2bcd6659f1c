import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ident, openDuckDb, type DuckDb } from '../../lib/duckdb.ts';

/**
 * Below this much text to load, every table fits in one DuckDB row group (122,880 rows) and each
 * file in one CSV buffer, so a second thread finds no work to share and only adds hand-offs
 * (measured on the 44k-stop_times TriMet feed: loads and sorts ~30% slower with 2 threads).
 */
const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;

/** Table of the session's main database listing the IANA zones ICU knows, for the timezone checks. */
export const KNOWN_ZONES_TABLE = 'memory.main.known_zones';

/**
 * The one DuckDB instance of a transit release build. Each feed's raw tables live in their own
 * in-memory database (`feed<N>`, dropped whole when the feed is refused); the build attaches
 * transit.duckdb to the same instance and fills it from them. Raw tables are never written to
 * disk (DuckDB spills to tempDirectory past memory_limit), so nothing is compressed, checkpointed
 * and read back between validation and build.
 */
export interface BuildSession {
  /** The session's own connection (attach/detach, settings, the build). */
  connection: DuckDBConnection;
  /** Creates KNOWN_ZONES_TABLE (the timezone checks read it) on first call; resolves once it exists. */
  knownZonesReady(): Promise<void>;
  /** Creates the in-memory database `name` for one feed's raw tables. */
  attachFeed(name: string): Promise<void>;
  /** Drops a feed's database and everything in it. */
  detachFeed(name: string): Promise<void>;
  /** A further connection (queries on separate connections run side by side), using `database` by default. */
  connect(database: string): Promise<DuckDBConnection>;
  disconnect(connection: DuckDBConnection): void;
  /** Counts text about to be loaded; the session uses its threads once there is enough of it. */
  willLoad(bytes: number): Promise<void>;
  /** Closes the instance (idempotent) and removes the spill folder. */
  close(): Promise<void>;
}

export async function openBuildSession(workDir: string, limits: { memoryLimit: string; threads: number }): Promise<BuildSession> {
  await mkdir(workDir, { recursive: true });
  // one folder per session: DuckDB names its spill files alike in every instance
  const tempDirectory = await mkdtemp(path.join(workDir, 'duckdb-tmp-'));
  let db: DuckDb;
  try {
    db = await openDuckDb(':memory:', { ...limits, threads: 1, tempDirectory });
  } catch (err) {
    await rm(tempDirectory, { recursive: true, force: true });
    throw err;
  }
  const open = new Set<DuckDBConnection>();
  let closed = false;
  let loadBytes = 0;
  let threads = 1;
  // pg_timezone_names() computes every zone's offset: list the names once per session, on a
  // connection of its own, started with the first feed's loads (which leave a thread idle)
  let knownZones: Promise<void> | null = null;
  const listKnownZones = async () => {
    const connection = await db.instance.connect();
    try {
      await connection.run(`CREATE TABLE ${KNOWN_ZONES_TABLE} AS SELECT name FROM pg_timezone_names()`);
    } finally {
      connection.closeSync();
    }
  };
  return {
    connection: db.connection,
    knownZonesReady() {
      knownZones ??= listKnownZones();
      return knownZones;
    },
    async attachFeed(name) {
      await db.connection.run(`ATTACH ':memory:' AS ${ident(name)}`);
    },
    async connect(database) {
      const connection = await db.instance.connect();
      try {
        await connection.run(`USE ${ident(database)}`);
      } catch (err) {
        connection.closeSync();
        throw err;
      }
      open.add(connection);
      return connection;
    },
    async willLoad(bytes) {
      loadBytes += bytes;
      const wanted = loadBytes >= PARALLEL_MIN_BYTES ? limits.threads : 1;
      if (wanted === threads) return;
      await db.connection.run(`SET threads = ${wanted}`);
      threads = wanted;
    },
    disconnect(connection) {
      if (open.delete(connection)) connection.closeSync();
    },
    async detachFeed(name) {
      await db.connection.run(`DETACH ${ident(name)}`);
    },
    async close() {
      if (closed) return;
      closed = true;
      await knownZones?.catch(() => {});
      for (const connection of open) connection.closeSync();
      db.close();
      await rm(tempDirectory, { recursive: true, force: true });
    },
  };
}
