/**
 * `npm run bench:maps:scale`: the basemap build on province-sized synthetic extracts
 * (test/support/synthetic-osm, seeded) at three sizes, ours (the streamed build, memory bounded by
 * BASEMAP_BUILD_MEMORY_MB) against tilemaker 2.2 with `--store` on disk and its stock
 * OpenMapTiles profile (shapefile layers absent), each in its own process measured by GNU time:
 * wall time, CPU, peak RSS (both are one process: threads included, no children), tiles and
 * bytes inside the extract's bbox. Targets at the largest size: our peak RSS at most 1.5× ours
 * at the smallest, and our wall time at most tilemaker's. From the largest run, an estimate of a
 * Canada build. Generated extracts are kept in `--data` and reused.
 *
 *   npm run bench:maps:scale [-- --sizes small,medium,large] [--seed 1] [--data DIR]
 *     [--memory-mb N] [--in-memory] [--skip-tilemaker] [--timeout-min 120] [--json]
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sharedData } from '../../test/support/paths.ts';
import { mib } from './build-report.ts';
import { runOursBasemap, type OursRun } from './ours-build.ts';
import { scaleTable, canadaEstimate, type SizeRun } from './scale-report.ts';
import { generateSyntheticOsm } from '../../test/support/synthetic-osm/generate.ts';
import { SIZES, type SizeName } from '../../test/support/synthetic-osm/region.ts';
import { censusInBox } from './tile-census.ts';
import { ensureTilemaker, runTilemaker, type TilemakerRun } from './tilemaker.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: 'small,medium,large' },
    seed: { type: 'string', default: '1' },
    data: { type: 'string', default: path.join(os.tmpdir(), 'canmap-bench-osm') },
    'memory-mb': { type: 'string' },
    'in-memory': { type: 'boolean', default: false },
    'skip-tilemaker': { type: 'boolean', default: false },
    'timeout-min': { type: 'string', default: '120' },
    json: { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map((s) => s.trim()) as SizeName[];
for (const s of sizes) if (!(s in SIZES)) throw new Error(`--sizes: unknown size ${s} (${Object.keys(SIZES).join(', ')})`);
const seed = Number(values.seed);
const memoryMb = values['memory-mb'] ? Number(values['memory-mb']) : undefined;
const timeoutMs = Number(values['timeout-min']) * 60_000;
const log = (line: string) => process.stderr.write(`${line}\n`);
const PROVINCES = sharedData('geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson');
const MAX_ZOOM = 14;

const peer = values['skip-tilemaker'] ? null : ensureTilemaker();
for (const note of peer?.notes ?? []) log(note);
await mkdir(values.data, { recursive: true });
const scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-maps-scale-'));
const runs: SizeRun[] = [];
try {
  for (const size of sizes) {
    const input = path.join(values.data, `${size}-seed${seed}.osm.pbf`);
    const generated = await generateSyntheticOsm({ size, seed, out: input, reuse: true, log });
    log(`${size}: ${input}: ${generated.nodes.toLocaleString('en-CA')} nodes, ${generated.ways.toLocaleString('en-CA')} ways, ${mib(generated.bytes)}`);
    const archive = path.join(scratch, `${size}.pmtiles`);

    log(`${size}: ours (streamed) ...`);
    const ours = await runOursBasemap(input, PROVINCES, archive, path.join(scratch, 'work'), timeoutMs, memoryMb ? { memoryMb } : {});
    if (!ours.report) throw new Error(`our build on ${size}: ${ours.outcome}\n${ours.error ?? ''}`);
    const oursInBox = await censusInBox(archive, generated.bbox, 0, MAX_ZOOM);
    await rm(archive, { force: true });

    let inMemory: OursRun | null = null;
    if (values['in-memory']) {
      log(`${size}: ours (in memory) ...`);
      inMemory = await runOursBasemap(input, PROVINCES, archive, path.join(scratch, 'work'), timeoutMs, { inMemory: true });
      await rm(archive, { force: true });
    }

    let tilemaker: TilemakerRun | null = null;
    if (peer?.available) {
      log(`${size}: tilemaker --store ...`);
      const cwd = await mkdtemp(path.join(scratch, 'tilemaker-cwd-'));
      const store = path.join(cwd, 'store');
      await mkdir(store);
      tilemaker = await runTilemaker(input, path.join(cwd, 'out.mbtiles'), cwd, timeoutMs, store);
      if (tilemaker.error) log(tilemaker.error);
      await rm(cwd, { recursive: true, force: true });
    }
    runs.push({ size, input: generated, ours, oursInBox, inMemory, tilemaker });
  }

  const estimate = canadaEstimate(runs);
  console.log(['', `command: node --import tsx ${path.relative(process.cwd(), process.argv[1]!)} ${process.argv.slice(2).join(' ')}`, `machine: ${machine()}`, '', scaleTable(runs, peer?.version ?? null), '', estimate.text].join('\n'));
  if (values.json) console.log(JSON.stringify({ machine: machine(), peer: peer?.version ?? null, runs, estimate }));
} finally {
  await rm(scratch, { recursive: true, force: true });
}

function machine(): string {
  return `${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`;
}
