/**
 * The routing engine against pgRouting 3.4 in PostgreSQL, on the Vancouver graph with its turn
 * restrictions: the CSV export COPYed into a database of its own, the edge-expanded graph built
 * there in SQL (pgrouting-db.ts), and pgr_dijkstraCost / pgr_drivingDistance as the oracle for
 * searchRoute and reachWithin. pgRouting missing is a failure (with the package to install), not a skip.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { costModel, type CostModel } from '../../engines/routing/cost-model.ts';
import { edgeCsvLines, turnCsvLines } from '../../engines/routing/edge-export.ts';
import { destinationAtNode, originAtNode } from '../../engines/routing/endpoints.ts';
import { writeGraphFile } from '../../engines/routing/graph-file.ts';
import { modeBit } from '../../engines/routing/graph-format.ts';
import { MODES, type Mode } from '../../engines/routing/modes.ts';
import { arrivalByEdge, reachWithin } from '../../engines/routing/reach.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { searchRoute } from '../../engines/routing/search.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import { buildRoadGraph } from '../../ingest/roads/graph-build.ts';
import { readRoadWays } from '../../ingest/roads/read-ways.ts';
import { applyTurnRestrictions, readTurnRestrictions } from '../../ingest/roads/restriction-build.ts';
import { wayProfile } from '../../ingest/roads/way-tags.ts';
import { runCanmap } from '../support/canmap-process.ts';
import { sharedData } from '../support/paths.ts';
import { openPgRoutingDb, type PgRoutingDb } from '../support/routing/pgrouting-db.ts';
import {  } from './vancouver-graph.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

const ORIGINS = 20;
const DESTINATIONS_PER_ORIGIN = 10;
const NODE_PAIRS_SIDE = 10;
const ISOCHRONE_ORIGINS = 3;
const BUDGETS = [300, 600];
const REL = 1e-6;

let dir: string;
let graphFile: string;
let graph: RoadGraph;
let db: PgRoutingDb;
/** A setup failure (pgRouting missing above all) fails every test with its message, rather than skipping them. */
let setupError: unknown;
const started = performance.now();

beforeAll(async () => {
  try {
    await setUp();
  } catch (err) {
    setupError = err;
  }
}, 120_000);
beforeEach(() => {
  if (setupError) throw setupError;
});

async function setUp(): Promise<void> {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-pgrouting-'));
  const osm = sharedData('osm/pelias-vancouver_canada.osm.pbf');
  const build = buildRoadGraph(await readRoadWays(osm, wayProfile));
  const turns = applyTurnRestrictions(build, (await readTurnRestrictions(osm)).restrictions);
  graphFile = path.join(dir, 'roads.graph');
  await writeGraphFile(graphFile, turns.arrays);
  graph = await RoadGraph.open(graphFile);
  const t0 = performance.now();
  db = await openPgRoutingDb(graph);
  console.log(`pgrouting: graph and database ready in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
    `(database ${((performance.now() - t0) / 1000).toFixed(1)} s); line graph arcs ${JSON.stringify(db.arcs)}`);
}

afterAll(async () => {
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
  console.log(`pgrouting: whole file ${((performance.now() - started) / 1000).toFixed(1)} s`);
});

const closeTo = (got: number, want: number) => Math.abs(got - want) <= REL * Math.max(1, Math.abs(want));

function usableEdges(model: CostModel): number[] {
  const out: number[] = [];
  for (let e = 0; e < graph.edgeCount; e++) if (model.allowed(e)) out.push(e);
  return out;
}

/** pgr_dijkstraCost over `edgesSql` for the (source, target) pairs: agg_cost by "source,target"; unreachable pairs are absent. */
async function pgrCosts(edgesSql: string, pairs: [number, number][]): Promise<Map<string, number>> {
  const { rows } = await db.client.query<{ start_vid: string; end_vid: string; agg_cost: number }>(
    `SELECT start_vid, end_vid, agg_cost FROM pgr_dijkstraCost($1,
       format('SELECT * FROM unnest(%L::bigint[], %L::bigint[]) AS p(source, target)', $2::bigint[], $3::bigint[]), true)`,
    [edgesSql, pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  return new Map(rows.map((r) => [`${r.start_vid},${r.end_vid}`, r.agg_cost]));
}

describe('the CSV export as COPYed into PostgreSQL', () => {
  it('holds every directed edge with the engine\'s numbers exactly, and every forbidden turn', async () => {
    expect(db.copied).toEqual({ edges: graph.edgeCount, turns: graph.arrays.turnInEdge.length });
    expect(db.copied.turns).toBeGreaterThan(100);
    const models = MODES.map((m) => costModel(graph, m));
    const { rows } = await db.client.query(`SELECT * FROM edges ORDER BY id`);
    const wrong: string[] = [];
    for (const r of rows) {
      const e = Number(r.id);
      const reverse = graph.reverseEdge(e) ?? -1;
      if (Number(r.source) !== graph.edgeSource(e) || Number(r.target) !== graph.edgeTarget(e) || Number(r.reverse) !== reverse) wrong.push(`${e} ends`);
      if (r.length_m !== graph.arrays.edgeLength[e]) wrong.push(`${e} length ${r.length_m}`);
      models.forEach((m, i) => {
        const want = m.allowed(e) ? m.cost(e) : -1;
        if (r[`cost_${MODES[i]}`] !== want) wrong.push(`${e} cost_${MODES[i]} ${r[`cost_${MODES[i]}`]} ≠ ${want}`);
      });
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    const turns = await db.client.query(`SELECT in_edge, out_edge, modes FROM turns ORDER BY in_edge, out_edge`);
    const { turnInEdge, turnOutEdge, turnModes } = graph.arrays;
    expect(turns.rows.map((t) => `${t.in_edge} ${t.out_edge} ${t.modes}`)).toEqual(Array.from(turnInEdge, (inEdge, i) =>
      `${inEdge} ${turnOutEdge[i]} ${MODES.filter((m) => turnModes[i]! & modeBit(m)).join('|')}`));
  });
});

describe('canmap roads export', () => {
  it('writes edges.csv and turns.csv of a graph file and prints the counts', async () => {
    const out = path.join(dir, 'export');
    // Vite sets BASE_URL=/ in the test process, which the config would refuse.
    const env = { BASE_URL: 'http://api.canmap.test' };
    const run = await runCanmap(['roads', 'export', '--graph', graphFile, '--out', out, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ edges: graph.edgeCount, turns: graph.arrays.turnInEdge.length });
    const csv = (lines: Iterable<string>) => `${[...lines].join('\n')}\n`;
    expect(await readFile(path.join(out, 'edges.csv'), 'utf8')).toBe(csv(edgeCsvLines(graph)));
    expect(await readFile(path.join(out, 'turns.csv'), 'utf8')).toBe(csv(turnCsvLines(graph)));
    const usage = await runCanmap(['roads', 'export', '--out', out], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--graph');
  });
});

describe('edge-based searchRoute with turn restrictions equals pgr_dijkstra on the line graph', () => {
  for (const mode of MODES) {
    it(`${mode}: ${ORIGINS * DESTINATIONS_PER_ORIGIN} random edge pairs and every restricted turn`, async () => {
      const model = costModel(graph, mode);
      const rule = graphTurnRule(graph, mode);
      const usable = usableEdges(model);
      const rnd = random(4000 + MODES.indexOf(mode));
      const pick = () => usable[Math.floor(rnd() * usable.length)]!;
      const pairs: [number, number][] = [];
      for (let i = 0; i < ORIGINS; i++) {
        const o = pick();
        for (let j = 0; j < DESTINATIONS_PER_ORIGIN; j++) {
          const d = pick();
          if (d !== o) pairs.push([o, d]);
        }
      }
      const randomPairs = pairs.length;
      // Straight across each forbidden turn: the route must go round (or be impossible).
      const { turnInEdge, turnOutEdge, turnModes } = graph.arrays;
      for (let i = 0; i < turnInEdge.length; i++) if (turnModes[i]! & modeBit(mode)) pairs.push([turnInEdge[i]!, turnOutEdge[i]!]);

      const t0 = performance.now();
      const theirs = await pgrCosts(db.lineGraphSql(mode), pairs);
      const pgrMs = performance.now() - t0;
      const t1 = performance.now();
      const wrong: string[] = [];
      let reachable = 0;
      let detours = 0;
      pairs.forEach(([o, d], k) => {
        const route = searchRoute(model, [{ edge: o, fraction: 0 }], [{ edge: d, fraction: 1 }], { turnRule: rule });
        const agg = theirs.get(`${o},${d}`);
        if (agg === undefined) {
          if (route !== null) wrong.push(`${o}→${d}: ours ${route.cost}, pgRouting unreachable`);
          return;
        }
        const want = model.cost(o) + agg;
        if (route === null) wrong.push(`${o}→${d}: ours unreachable, pgRouting ${want}`);
        else if (!closeTo(route.cost, want)) wrong.push(`${o}→${d}: ours ${route.cost}, pgRouting ${want}`);
        else reachable++;
        if (k >= randomPairs) {
          const free = searchRoute(model, [{ edge: o, fraction: 0 }], [{ edge: d, fraction: 1 }]);
          if (free === null || free.cost < want - 1e-9) detours++;
        }
      });
      console.log(`pgrouting ${mode}: ${reachable} of ${pairs.length} pairs agree reachable (${pairs.length - randomPairs} across forbidden turns, ` +
        `${detours} of those made costlier by the restriction); pgr_dijkstraCost ${pgrMs.toFixed(0)} ms, ours ${(performance.now() - t1).toFixed(0)} ms`);
      expect(wrong.slice(0, 10), `${wrong.length} disagreements`).toEqual([]);
      expect(reachable).toBeGreaterThan(randomPairs / 2);
      if (mode !== 'pedestrian') expect(detours).toBeGreaterThan(0);
    }, 60_000);
  }
});

describe('node-based search without turn rule equals pgr_dijkstra on the plain edges', () => {
  it(`auto: ${NODE_PAIRS_SIDE * NODE_PAIRS_SIDE} random node pairs`, async () => {
    const model = costModel(graph, 'auto');
    const usable = usableEdges(model);
    const rnd = random(77);
    const nodes = (n: number) => Array.from({ length: n }, () => graph.edgeSource(usable[Math.floor(rnd() * usable.length)]!));
    const sources = nodes(NODE_PAIRS_SIDE);
    const targets = nodes(NODE_PAIRS_SIDE);
    const pairs = sources.flatMap((s) => targets.filter((t) => t !== s).map((t): [number, number] => [s, t]));
    const theirs = await pgrCosts('SELECT id, source, target, cost_auto AS cost FROM edges WHERE cost_auto >= 0', pairs);
    const destinations = new Map(targets.map((t) => [t, destinationAtNode(model, t)]));
    const wrong: string[] = [];
    let reachable = 0;
    for (const [s, t] of pairs) {
      const route = searchRoute(model, originAtNode(model, s), destinations.get(t)!);
      const want = theirs.get(`${s},${t}`);
      if (want === undefined) {
        if (route !== null) wrong.push(`node ${s}→${t}: ours ${route.cost}, pgRouting unreachable`);
      } else if (route === null) wrong.push(`node ${s}→${t}: ours unreachable, pgRouting ${want}`);
      else if (!closeTo(route.cost, want)) wrong.push(`node ${s}→${t}: ours ${route.cost}, pgRouting ${want}`);
      else reachable++;
    }
    console.log(`pgrouting node-based auto: ${reachable} of ${pairs.length} pairs agree reachable`);
    expect(wrong.slice(0, 10), `${wrong.length} disagreements`).toEqual([]);
    expect(reachable).toBeGreaterThan(pairs.length / 2);
  });
});

describe('reachWithin equals pgr_drivingDistance on the line graph', () => {
  for (const mode of ['auto', 'pedestrian'] as Mode[]) {
    it(`${mode}: ${ISOCHRONE_ORIGINS} origins, budgets ${BUDGETS.join(' and ')} s`, async () => {
      const model = costModel(graph, mode);
      const rule = graphTurnRule(graph, mode);
      const usable = usableEdges(model).filter((e) => model.cost(e) < Math.min(...BUDGETS) / 4);
      const rnd = random(900 + MODES.indexOf(mode));
      const origins = Array.from({ length: ISOCHRONE_ORIGINS }, () => usable[Math.floor(rnd() * usable.length)]!);
      const max = Math.max(...BUDGETS);
      const { rows } = await db.client.query<{ from_v: string; node: string; agg_cost: number }>(
        'SELECT from_v, node, agg_cost FROM pgr_drivingDistance($1, $2::bigint[], $3, true)',
        [db.lineGraphSql(mode), origins, max],
      );
      const theirs = new Map(origins.map((o) => [o, new Map<number, number>()]));
      for (const r of rows) theirs.get(Number(r.from_v))!.set(Number(r.node), r.agg_cost);
      const wrong: string[] = [];
      const counts: number[] = [];
      for (const o of origins) {
        const pgr = theirs.get(o)!;
        for (const budget of BUDGETS) {
          const arrival = arrivalByEdge(reachWithin(model, [{ edge: o, fraction: 0 }], budget, rule), graph.edgeCount);
          let reached = 0;
          for (let e = 0; e < graph.edgeCount; e++) {
            const agg = pgr.get(e);
            const want = agg === undefined ? Infinity : agg + model.cost(o);
            if (Math.abs(want - budget) <= REL * budget) continue; // on the boundary: either answer is right
            const ours = arrival[e]!;
            if (Number.isFinite(ours) !== want <= budget) wrong.push(`${mode} from ${o} within ${budget} s: edge ${e} ours ${ours}, pgRouting ${want}`);
            else if (Number.isFinite(ours) && !closeTo(ours, want)) wrong.push(`${mode} from ${o}: edge ${e} arrival ours ${ours}, pgRouting ${want}`);
            if (Number.isFinite(ours)) reached++;
          }
          counts.push(reached);
        }
      }
      console.log(`pgrouting isochrones ${mode}: edges reached ${counts.join(', ')} (per origin, ${BUDGETS.join('/')} s)`);
      expect(wrong.slice(0, 10), `${wrong.length} disagreements`).toEqual([]);
      expect(Math.min(...counts)).toBeGreaterThan(0);
      expect(counts.reduce((a, b) => a + b)).toBeGreaterThan(100);
    });
  }
});
