/**
 * A throwaway PostgreSQL database with pgRouting holding a road graph's CSV export
 * (engines/routing/edge-export.ts): tables `edges` and `turns` as exported, and per mode the
 * edge-expanded graph `line_<mode>` built in SQL from those tables alone, independently of the
 * engine's Moves: its vertices are directed edges, an arc e1 → e2 exists where e1 ends and e2
 * starts, the mode may use both, e2 is not the reverse of e1 unless e1's end offers the mode no
 * other exit, and no turn restriction binding the mode forbids (e1, e2); the arc costs cost(e2).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { edgeCsvLines, turnCsvLines } from '../../../engines/routing/edge-export.ts';
import { MODES, type Mode } from '../../../engines/routing/modes.ts';
import type { RoadGraph } from '../../../engines/routing/road-graph.ts';
import { withDatabase } from '../../../lib/postgres.ts';
import { copyIn } from './pg-copy-in.ts';

/** The server the other database tests use (test/support/env.ts). */
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const MISSING_PGROUTING = 'pgRouting is not installed on the PostgreSQL server: install the Debian package ' +
  'postgresql-15-pgrouting (apt-get install postgresql-15-pgrouting; .ci/run installs it when missing)';

export interface PgRoutingDb {
  client: pg.Client;
  /** Rows COPYed into edges and turns. */
  copied: { edges: number; turns: number };
  /** Arcs of each mode's line graph. */
  arcs: Record<Mode, number>;
  /** The pgRouting edges query of a mode's line graph. */
  lineGraphSql(mode: Mode): string;
  drop(): Promise<void>;
}

const lineGraphSql = (mode: Mode) => `SELECT id, source, target, cost FROM line_${mode}`;

async function requirePgRouting(client: pg.Client): Promise<void> {
  const { rows } = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'pgrouting'`);
  if (rows.length === 0) throw new Error(MISSING_PGROUTING);
  // pgRouting 3.4 depends on PostGIS (the Debian package pulls it in).
  await client.query('CREATE EXTENSION pgrouting CASCADE');
}

async function buildLineGraph(client: pg.Client, mode: Mode): Promise<number> {
  const cost = `cost_${mode}`;
  await client.query(`
    CREATE TABLE line_${mode} AS
    SELECT row_number() OVER (ORDER BY e1.id, e2.id) AS id, e1.id AS source, e2.id AS target, e2.${cost} AS cost
    FROM edges e1 JOIN edges e2 ON e2.source = e1.target
    WHERE e1.${cost} >= 0 AND e2.${cost} >= 0
      AND (e2.id <> e1.reverse OR NOT EXISTS (
        SELECT 1 FROM edges e3 WHERE e3.source = e1.target AND e3.${cost} >= 0 AND e3.id <> e1.reverse))
      AND NOT EXISTS (
        SELECT 1 FROM turns t WHERE t.in_edge = e1.id AND t.out_edge = e2.id AND '${mode}' = ANY (string_to_array(t.modes, '|')))`);
  const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM line_${mode}`);
  return Number(rows[0]!.n);
}

export async function openPgRoutingDb(graph: RoadGraph): Promise<PgRoutingDb> {
  const name = `canmap_test_pgrouting_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.end();
  };
  const client = new pg.Client({ connectionString: withDatabase(SERVER_URL, name) });
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    await client.connect();
    await requirePgRouting(client);
    const costs = MODES.map((m) => `cost_${m} double precision NOT NULL`).join(', ');
    await client.query(`CREATE TABLE edges (id bigint PRIMARY KEY, source bigint NOT NULL, target bigint NOT NULL,
      reverse bigint NOT NULL, length_m double precision NOT NULL, ${costs})`);
    await client.query('CREATE TABLE turns (in_edge bigint NOT NULL, out_edge bigint NOT NULL, modes text NOT NULL, PRIMARY KEY (in_edge, out_edge))');
    const copied = {
      edges: await copyIn(client, 'COPY edges FROM STDIN (FORMAT csv, HEADER true)', edgeCsvLines(graph)),
      turns: await copyIn(client, 'COPY turns FROM STDIN (FORMAT csv, HEADER true)', turnCsvLines(graph)),
    };
    await client.query('CREATE INDEX ON edges (source)');
    await client.query('ANALYZE edges; ANALYZE turns');
    const arcs = {} as Record<Mode, number>;
    for (const mode of MODES) arcs[mode] = await buildLineGraph(client, mode);
    return {
      client, copied, arcs, lineGraphSql,
      async drop() {
        await client.end().catch(() => {});
        await drop();
      },
    };
  } catch (err) {
    await client.end().catch(() => {});
    await drop();
    throw err;
  }
}
