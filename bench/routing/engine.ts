/**
 * `npm run bench:routing:engine`: engine-only query time, ours against pgRouting's
 * pgr_bdDijkstra on the same graph and node pairs, on Vancouver's roads release and on the
 * synthetic national graph (`--nodes`, default 5,000,000).
 *
 * Both engines solve the same problem: node to node over the graph the hierarchy is built from —
 * the directed edges of the lower-bound motor metric (contraction/metric.ts; for default auto
 * these are auto's seconds) between road nodes, and around turn restrictions between arrivals
 * (contraction/region.ts), so the restrictions bind both; pgRouting gets exactly that graph
 * (pgrouting-peer.ts) and its agg_cost is checked against chRoute's distance. Beside it,
 * shortestPath for auto (the facade /route calls: the path checked against the cost model, A*
 * with CH-potentials when it breaks a rule) and, on Vancouver, plain A*. Endpoints are graph nodes (node-pairs.ts); snapping is not timed.
 * pgRouting builds its graph from the edges SQL on every call, so on the 5M graph each query takes
 * seconds: `--pgr-pairs` (default 5) of the pairs go to it there, `--pgr-vancouver-pairs` (50) on
 * Vancouver.
 *
 *   npm run bench:routing:engine [-- --nodes 5000000] [--pairs 1000] [--pgr-pairs 5] [--pgr-vancouver-pairs 50]
 *                                   [--box-margin 0.25] [--seed 1] [--skip-pgrouting]
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { costModel } from '../../engines/routing/cost-model.ts';
import { REPO_ROOT } from '../../test/support/paths.ts';
import { syntheticNetwork, vancouverNetwork, type BenchNetwork } from './bench-network.ts';
import { timeOurs } from './engine-ours.ts';
import { timePeer } from './engine-peer.ts';
import { graphSection, type GraphRun } from './engine-report.ts';
import { IncomingEdges } from '../../engines/routing/incoming-edges.ts';
import { reachablePairs } from './node-pairs.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000000' },
    pairs: { type: 'string', default: '1000' },
    'pgr-pairs': { type: 'string', default: '5' },
    'pgr-vancouver-pairs': { type: 'string', default: '50' },
    'box-margin': { type: 'string', default: '0.25' },
    seed: { type: 'string', default: '1' },
    'skip-pgrouting': { type: 'boolean', default: false },
  },
});
const int = (name: keyof typeof values, min: number) => {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${values[name]}`);
  return v;
};
const nodes = int('nodes', 1000);
const pairCount = int('pairs', 1);
const seed = int('seed', 0);
const pgrPairs = Math.min(pairCount, int('pgr-pairs', 1));
const pgrVancouverPairs = Math.min(pairCount, int('pgr-vancouver-pairs', 1));
const boxMargin = Number(values['box-margin']);
if (!(boxMargin >= 0)) throw new Error(`--box-margin must be ≥ 0, got ${values['box-margin']}`);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function runGraph(net: BenchNetwork, peerPairs: number, withAStar: boolean): Promise<GraphRun> {
  log(`${net.label}: ready in ${net.seconds.toFixed(1)} s; drawing ${pairCount} pairs ...`);
  const incoming = new IncomingEdges(net.graph);
  const auto = costModel(net.graph, 'auto');
  const { pairs, redraws } = reachablePairs(net, incoming, [(e) => auto.allowed(e)], pairCount, seed);
  log(`${net.label}: timing ours ...`);
  const ours = timeOurs(net, incoming, pairs, withAStar);
  const peer = values['skip-pgrouting'] ? null : await timePeer(net, pairs.slice(0, peerPairs), boxMargin, log);
  return { net, pairs: pairs.length, redraws, seed, ours, peer };
}

log('Vancouver: building the roads release ...');
const vancouver = graphSection(await runGraph(await vancouverNetwork(), pgrVancouverPairs, true), false);
log(`synthetic: generating ${nodes.toLocaleString('en-CA')} nodes and contracting ...`);
const synthetic = graphSection(await runGraph(syntheticNetwork(nodes, seed), pgrPairs, false), true);
console.log([
  '',
  `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
  `machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version};`
    + ` load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  'node-to-node, one query at a time after an untimed pass; pgRouting time = SQL wall time per call seen by the client',
  '',
  ...vancouver,
  '',
  ...synthetic,
].join('\n'));
