/**
 * `npm run bench:maps:build`: the basemap build on the Vancouver extract, ours (the basemap
 * release's build: OSM layers + the coarse national layers, z0–14 PMTiles) against Debian's
 * tilemaker 2.2 with its stock OpenMapTiles profile (MBTiles). Both read the same referentially
 * complete copy of the Pelias extract (samples/basemap/cut-extract.ts: tilemaker aborts on the
 * original's dangling node references), each in its own process measured by GNU time, the two
 * alternating `--runs` times (the run with the median wall time of each is printed). Larger
 * inputs and the Canada estimate are bench/maps/scale.ts's.
 *
 *   npm run bench:maps:build [-- --runs 3] [--skip-tilemaker] [--timeout-min 30] [--keep] [--json]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, sharedData } from '../../test/support/paths.ts';
import { writeCompleteExtract } from '../../samples/basemap/cut-extract.ts';
import { mib, perZoomTable, wholeBuildTable } from './build-report.ts';
import { runOursBasemap, type OursRun } from './ours-build.ts';
import { censusInBox, type ZoomCensus } from './tile-census.ts';
import { ensureTilemaker, runTilemaker, TILEMAKER_CONFIG, type TilemakerRun } from './tilemaker.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'skip-tilemaker': { type: 'boolean', default: false },
    'timeout-min': { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);
const timeoutMs = Number(values['timeout-min']) * 60_000;
const log = (line: string) => process.stderr.write(`${line}\n`);

const EXTRACT = sharedData('osm/pelias-vancouver_canada.osm.pbf');
const PROVINCES = sharedData('geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson');
const MAX_ZOOM = 14;

/** The run with the median wall time (the middle one of an odd count, the lower middle of an even one). */
function medianRun<T extends { seconds: number }>(list: readonly T[]): T {
  return [...list].sort((a, b) => a.seconds - b.seconds)[Math.floor((list.length - 1) / 2)]!;
}

const fail = (what: string, run: { outcome: string; error?: string }) => new Error(`${what}: ${run.outcome}${run.error ? `\n${run.error}` : ''}`);

const scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-maps-'));
try {
  const complete = path.join(scratch, 'vancouver-complete.osm.pbf');
  const cutStarted = performance.now();
  const cut = await writeCompleteExtract(EXTRACT, complete);
  log(`complete extract: ${cut.nodes} nodes, ${cut.ways} ways, ${cut.relations} relations, ${mib(cut.bytes)} in ${((performance.now() - cutStarted) / 1000).toFixed(1)} s`);

  let peerName = 'tilemaker';
  let tilemakerOk = false;
  if (!values['skip-tilemaker']) {
    const check = ensureTilemaker();
    for (const note of check.notes) log(note);
    tilemakerOk = check.available;
    peerName = `tilemaker ${check.version ?? ''}`.trim();
  }

  const oursRuns: OursRun[] = [];
  const peerRuns: TilemakerRun[] = [];
  const oursArchive = path.join(scratch, 'ours.pmtiles');
  const peerOut = (i: number) => path.join(scratch, `tilemaker-${i}.mbtiles`);
  for (let i = 0; i < runs; i++) {
    log(`run ${i + 1}/${runs}: ours on the extract ...`);
    oursRuns.push(await runOursBasemap(complete, PROVINCES, oursArchive, path.join(scratch, 'work'), timeoutMs));
    if (tilemakerOk) {
      log(`run ${i + 1}/${runs}: ${peerName} on the extract ...`);
      const peerScratch = await mkdtemp(path.join(scratch, 'tilemaker-cwd-'));
      peerRuns.push(await runTilemaker(complete, peerOut(i), peerScratch, timeoutMs));
    }
  }
  const ours = medianRun(oursRuns);
  if (!ours.report) throw fail('our build on the extract', ours);
  const peerOkRuns = peerRuns.filter((r) => r.outcome === 'ok');
  const peer: TilemakerRun | null = peerRuns.length === 0 ? null : peerOkRuns.length > 0 ? medianRun(peerOkRuns) : peerRuns[0]!;
  if (peer?.error) log(peer.error);

  const bbox = ours.report.osmBounds;
  const oursInBox: ZoomCensus[] = await censusInBox(oursArchive, bbox, 0, MAX_ZOOM);
  const peerZooms = peer?.outcome === 'ok' ? peer.zooms : [];

  if (values.json) {
    console.log(JSON.stringify({ extract: cut, ours, oursInBox, peer, runs: { ours: oursRuns, tilemaker: peerRuns } }));
  } else {
    const layers = Object.entries(ours.report.features).map(([l, n]) => `${l} ${n.toLocaleString('en-CA')}`).join(', ');
    const walls = (list: readonly { seconds: number }[]) => list.map((r) => r.seconds.toFixed(2)).join(', ');
    const generated = peer?.generated;
    console.log([
      '',
      `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
      `machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version};`
        + ` load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
      `input: ../shared/data/osm/pelias-vancouver_canada.osm.pbf as a referentially complete copy (${cut.nodes.toLocaleString('en-CA')} nodes,`
        + ` ${cut.ways.toLocaleString('en-CA')} ways, ${cut.relations} relations, ${mib(cut.bytes)}), bbox ${bbox.join(',')}; z0–${MAX_ZOOM}.`,
      `each build in its own process, alternating, ${runs} run(s); printed: the median run by wall time. Wall: ours ${walls(oursRuns)} s;`
        + ` tilemaker ${peerRuns.length ? walls(peerRuns) : 'not run'} s. Peak RSS and CPU from GNU time.`,
      '',
      wholeBuildTable({ ours, oursInBox, peer, peerName }),
      '',
      'Not the same output: the peer builds the OSM layers only (OpenMapTiles schema). Its stock config names shapefiles',
      `that are not on this machine (${peer?.missingShapefiles.length ? peer.missingShapefiles.join(', ') : 'none reported'}), which it skips.`,
      'Ours (Protomaps schema) also builds the national coarse layers — Natural Earth land over Canada, country and province',
      'borders, localities — so its whole archive covers the country at z0–8; the bbox rows compare like with like.',
      `ours, features in: ${ours.report.inputFeatures.toLocaleString('en-CA')} (${layers}); OSM objects skipped: ${ours.report.skippedOsm};`
        + ` z9–14 land: ${ours.report.coast}; in-process ${ours.report.seconds.toFixed(2)} s, of which reading ${ours.report.readSeconds.toFixed(2)} s.`,
      'The peer\'s z0–7 tiles are near-empty (20-byte tiles at z0–3): without its shapefiles it has no land or ocean there.',
      generated ? `tilemaker, objects generated: ${generated.points.toLocaleString('en-CA')} points, ${generated.lines.toLocaleString('en-CA')} lines, ${generated.polygons.toLocaleString('en-CA')} polygons (profile ${TILEMAKER_CONFIG}).` : '',
      '',
      'tiles intersecting the extract bbox, per zoom (gzip tile bytes):',
      perZoomTable(oursInBox, peerZooms),
    ].filter((line, i, all) => line !== '' || all[i - 1] !== '').join('\n'));
  }
} finally {
  if (values.keep) log(`kept ${scratch}`);
  else await rm(scratch, { recursive: true, force: true });
}
