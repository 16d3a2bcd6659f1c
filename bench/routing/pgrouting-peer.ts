/**
 * The peer of the engine benchmark: pgRouting's pgr_bdDijkstra over the graph the hierarchy is
 * built from (contraction/region-graph.ts: the road nodes, and around turn restrictions one node
 * per arrival, joined by the directed edges of the lower-bound motor metric, seconds), in a
 * throwaway database — the same problem, turn restrictions included. One row per arc, `cost` its
 * weight and `reverse_cost` -1 (the opposite direction is its own row), `p` the position of the
 * road node it leaves for the bounding-box variant. Every call builds its graph from the edges SQL,
 * as pgRouting does: that is the peer as operators run it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { hierarchyInput } from '../../engines/routing/contraction/region-graph.ts';
import { fromMicroDegrees } from '../../engines/routing/graph-format.ts';
import { withDatabase } from '../../lib/postgres.ts';
import { MISSING_PGROUTING } from '../../test/support/routing/pgrouting-db.ts';
import { copyIn } from '../../test/support/routing/pg-copy-in.ts';
import type { BenchNetwork } from './bench-network.ts';

const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EDGES_SQL = 'SELECT id, source, target, cost, reverse_cost FROM edges';

export interface PgrAnswer {
  ms: number;
  /** agg_cost of the path, null when pgRouting found none. */
  cost: number | null;
}

export interface PgrPeer {
  version: string;
  rows: number;
  loadSeconds: number;
  route(origin: number, destination: number): Promise<PgrAnswer>;
  /** pgr_dijkstra (one-directional) over the whole table: the referee when pgr_bdDijkstra and we disagree. */
  dijkstra(origin: number, destination: number): Promise<PgrAnswer>;
  /** Only edges leaving nodes inside the pair's bounding box widened by `margin` of its larger side (and at least 0.02°). */
  routeInBox(origin: number, destination: number, margin: number): Promise<PgrAnswer>;
  drop(): Promise<void>;
}

function* edgeRows(net: BenchNetwork): Generator<string> {
  const a = net.graph.arrays;
  const nodes = net.hierarchy.nodes;
  const weight = net.hierarchy.arrays.edgeWeight;
  const input = hierarchyInput(net.graph, weight, nodes);
  for (let x = 0; x < nodes.count; x++) {
    const at = x < nodes.roadNodes ? x : a.edgeTarget[nodes.arrivalEdge(x)]!;
    const p = `"(${fromMicroDegrees(a.nodeLng[at]!)},${fromMicroDegrees(a.nodeLat[at]!)})"`;
    for (let i = input.first[x]!; i < input.first[x + 1]!; i++) yield `${i},${x},${input.head[i]!},${weight[input.edge[i]!]!},-1,${p}`;
  }
}

export async function openPgrPeer(net: BenchNetwork): Promise<PgrPeer> {
  const name = `canmap_bench_pgrouting_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const client = new pg.Client({ connectionString: withDatabase(SERVER_URL, name) });
  const drop = async () => {
    await client.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.end();
  };
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    await client.connect();
    const available = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'pgrouting'`);
    if (available.rows.length === 0) throw new Error(MISSING_PGROUTING);
    await client.query('CREATE EXTENSION pgrouting CASCADE');
    const version = (await client.query<{ v: string }>('SELECT pgr_version() AS v')).rows[0]!.v;
    const started = performance.now();
    await client.query(`CREATE TABLE edges (id bigint PRIMARY KEY, source bigint NOT NULL, target bigint NOT NULL,
      cost double precision NOT NULL, reverse_cost double precision NOT NULL, p point NOT NULL)`);
    const rows = await copyIn(client, 'COPY edges FROM STDIN (FORMAT csv)', edgeRows(net));
    await client.query('CREATE INDEX ON edges USING gist (p)');
    await client.query('VACUUM ANALYZE edges');
    const loadSeconds = (performance.now() - started) / 1000;

    const nodeLngLat = (v: number) => net.graph.nodeLngLat(v);
    const timed = async (sql: string, origin: number, destination: number, fn = 'pgr_bdDijkstra'): Promise<PgrAnswer> => {
      const t0 = performance.now();
      const result = await client.query<{ agg_cost: number }>(
        `SELECT agg_cost FROM ${fn}($1, $2::bigint, $3::bigint, directed => true) WHERE edge = -1`, [sql, origin, destination]);
      return { ms: performance.now() - t0, cost: result.rows[0]?.agg_cost ?? null };
    };
    return {
      version, rows, loadSeconds,
      route: (origin, destination) => timed(EDGES_SQL, origin, destination),
      dijkstra: (origin, destination) => timed(EDGES_SQL, origin, destination, 'pgr_dijkstra'),
      routeInBox(origin, destination, margin) {
        const [x1, y1] = nodeLngLat(origin);
        const [x2, y2] = nodeLngLat(destination);
        const pad = Math.max(0.02, margin * Math.max(Math.abs(x2 - x1), Math.abs(y2 - y1)));
        const box = `box '((${Math.min(x1, x2) - pad},${Math.min(y1, y2) - pad}),(${Math.max(x1, x2) + pad},${Math.max(y1, y2) + pad}))'`;
        return timed(`${EDGES_SQL} WHERE p <@ ${box}`, origin, destination);
      },
      drop,
    };
  } catch (err) {
    await drop();
    throw err;
  }
}
