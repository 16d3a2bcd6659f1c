/**
 * `npm run bench:maps:serve`: the map endpoints through the full stack (key auth, rate limit,
 * metering) of `canmap serve` in its own process, each beside its in-process ceiling:
 *
 * 1. basemap tiles `/tiles/{z}/{x}/{y}?key=` at 64 connections over 2,000 tiles the archive has
 *    (tile-sample.ts: z0–14, weighted to z12–14 in the Vancouver extract), against TileArchive
 *    reads of the same tiles at 64 at once;
 * 2. `/styles/{style}.json` at 16 connections (and at 1) over every palette light and dark, with
 *    themes, overlays and lang=fr (request-mix.ts), against buildStyle called in-process (target
 *    p95 ≤ 5 ms);
 * 3. `/glyphs/2/…` and `/sprite/2/…` at 16 connections, against the assets release's lookups.
 * Each load run also prints the cores the API and the load generator (autocannon, in this process)
 * kept busy: autocannon on one thread is the limit for the larger binary answers.
 *
 * Releases: basemap (Pelias Vancouver extract), assets, and the demo catalog (for overlays=).
 *
 *   npm run bench:maps:serve [-- --duration 15]
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Assets } from '../../engines/assets/assets.ts';
import { Catalog } from '../../engines/catalog/catalog.ts';
import { ASSET_VERSIONS } from '../../engines/styles/build-style.ts';
import { TileArchive } from '../../engines/tiles/pmtiles/archive-reader.ts';
import type { Box } from '../../lib/geo/clip-box.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { BASEMAP_ARCHIVE } from '../../schemas/basemap-release.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { REPO_ROOT } from '../../test/support/paths.ts';
import { loadPaths, type LoadResult } from '../geocoding/load.ts';
import { freePort, startCanmap } from '../support/processes.ts';
import { processCpuSeconds, selfCpuSeconds } from '../support/process-cpu.ts';
import { readLoop } from '../support/read-loop.ts';
import type { LatencySummary } from '../transit/http-latency.ts';
import { catalogOverlays, glyphCall, spriteCall, styleCall, timedCalls } from './in-process.ts';
import { publishMapReleases } from './map-releases.ts';
import { GLYPH_RANGES, GLYPH_STACKS, glyphPaths, spriteFiles, spritePaths, styleCalls, stylePath } from './request-mix.ts';
import { sampleTiles } from './tile-sample.ts';

const STYLE_TARGET_P95_MS = 5;
const TILE_CONNECTIONS = 64;
const ASSET_CONNECTIONS = 16;

const { values } = parseArgs({ options: { duration: { type: 'string', default: '15' } } });
const seconds = Number(values.duration);
if (!(seconds > 0)) throw new Error(`--duration must be a positive number of seconds, got ${values.duration}`);
const log = (line: string) => process.stderr.write(`${line}\n`);

const env = await createTestEnv('bench_maps_serve');
const pool = createPool(env.config.databaseUrl, 2);
let server: ReturnType<typeof startCanmap> | null = null;
const closers: (() => Promise<void>)[] = [];
try {
  log('building and enabling the basemap, assets and catalog releases ...');
  const releases = await publishMapReleases(pool, env.config.releasesDir);
  const key = (await createKey(pool, {})).key;

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  server = startCanmap(['serve'], { ...env.env, PORT: String(port), BASE_URL: url, LOG_LEVEL: 'warn' });
  const firstPaths = [`/tiles/0/0/0?key=${key}`, glyphPaths(ASSET_VERSIONS.glyphs, key)[0]!, stylePath({ style: 'base-light', query: { overlays: 'parks' } }, key)];
  for (let ready = false; !ready;) {
    await new Promise((r) => setTimeout(r, 200));
    if (server.child.exitCode !== null) throw new Error(`canmap serve exited:\n${server.output()}`);
    const statuses = await Promise.all(firstPaths.map((p) => fetch(`${url}${p}`).then((r) => r.status, () => 0)));
    ready = statuses.every((s) => s === 200);
  }

  const archive = await TileArchive.open(path.join(releases.basemap.path, BASEMAP_ARCHIVE));
  closers.push(() => archive.close());
  const osmBox = releases.basemap.manifest.stats.osm_bounds as Box;
  const { tiles, available } = await sampleTiles(archive, osmBox, 2000);
  const catalog = await Catalog.open(releases.catalog.path, releases.catalog.id);
  closers.push(() => catalog.close());
  const assets = await Assets.open(releases.assets.path, releases.assets.id);

  const overlays = catalogOverlays(catalog);
  const calls = styleCalls(overlays.ids);
  const stylePaths = calls.map((c) => stylePath(c, key));
  const glyphs = glyphPaths(ASSET_VERSIONS.glyphs, key);
  const sprites = spritePaths(ASSET_VERSIONS.sprite, key);
  // Every distinct request answers 200 before it is timed: a benchmark of error answers would say nothing.
  for (const p of [...stylePaths, ...glyphs, ...sprites, ...tiles.slice(0, 200).map(([z, x, y]) => `/tiles/${z}/${x}/${y}?key=${key}`)]) {
    const response = await fetch(`${url}${p}`);
    if (response.status !== 200) throw new Error(`GET ${p.replace(key, 'KEY')}: ${response.status} ${(await response.text()).slice(0, 300)}`);
    await response.arrayBuffer().catch(() => undefined);
  }

  log(`in-process ceilings, ${seconds} s each ...`);
  const archiveRate = await readLoop(tiles, TILE_CONNECTIONS, seconds, ([z, x, y]) => archive.tile(z, x, y));
  const styleBuild = timedCalls(calls, seconds, styleCall(url, key, overlays.resolve, false));
  const styleEncoded = timedCalls(calls, seconds, styleCall(url, key, overlays.resolve, true));
  const glyphRequests = GLYPH_STACKS.flatMap((stack) => GLYPH_RANGES.map((start) => ({ fonts: stack.split(','), start })));
  const glyphLookup = timedCalls(glyphRequests, seconds, glyphCall(assets));
  const spriteLookup = timedCalls(spriteFiles(), seconds, spriteCall(assets));

  const serverPid = server.child.pid!;
  const load = async (paths: string[], connections: number): Promise<LoadResult & { serverCpu: number; loaderCpu: number }> => {
    log(`load: ${paths[0]!.replace(key, 'KEY')} … (${paths.length} paths) at ${connections} connections for ${seconds} s ...`);
    const [server0, loader0] = [processCpuSeconds(serverPid), selfCpuSeconds()];
    const result = await loadPaths(paths, { url, headers: {}, connections, seconds });
    return { ...result, serverCpu: processCpuSeconds(serverPid) - server0, loaderCpu: selfCpuSeconds() - loader0 };
  };
  const tileLoad = await load(tiles.map(([z, x, y]) => `/tiles/${z}/${x}/${y}?key=${key}`), TILE_CONNECTIONS);
  const styleLoad = await load(stylePaths, ASSET_CONNECTIONS);
  const styleAlone = await load(stylePaths, 1);
  const glyphLoad = await load(glyphs, ASSET_CONNECTIONS);
  const spriteLoad = await load(sprites, ASSET_CONNECTIONS);

  const ms = (v: number) => `${v < 1 ? v.toFixed(3) : v.toFixed(1)} ms`;
  const http = (label: string, r: LoadResult & { serverCpu: number; loaderCpu: number }) => [
    `${label.padEnd(44)} ${r.rps.toFixed(0).padStart(7)}/s  p50 ${ms(r.p50).padStart(9)}  p95 ${ms(r.p95).padStart(9)}  p99 ${ms(r.p99).padStart(9)}  failed ${r.failed}  ${r.meanBytes.toFixed(0)} B`,
    `  cores busy: API ${(r.serverCpu / seconds).toFixed(2)} (${((r.serverCpu * 1000) / Math.max(1, r.requests)).toFixed(3)} ms CPU per answer), load generator ${(r.loaderCpu / seconds).toFixed(2)}${r.loaderCpu / seconds >= 0.9 ? ' — bound by the load generator (one thread)' : ''}`,
  ].join('\n');
  const local = (label: string, r: LatencySummary) =>
    `${label.padEnd(44)} ${r.rps.toFixed(0).padStart(7)}/s  p50 ${ms(r.p50).padStart(9)}  p95 ${ms(r.p95).padStart(9)}  p99 ${ms(r.p99).padStart(9)}`;
  const x = (a: number, b: number) => `${a / b >= 0.01 ? (a / b).toFixed(2) : (a / b).toPrecision(2)}×`;
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const zoomCounts = [...available].map(([z, n]) => `z${z} ${n}`).join(', ');
  const zoomShare = Array.from({ length: 15 }, (_, z) => tiles.filter(([tz]) => tz === z).length).map((n, z) => `z${z} ${n}`).filter((s) => !s.endsWith(' 0')).join(', ');
  console.log([
    '',
    `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
    `machine: ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')};`
      + ` ${seconds} s per run; load generator on the same cores`,
    `releases: basemap ${releases.basemap.id} (${releases.seconds.basemap.toFixed(1)} s to build), assets ${releases.assets.id} (${releases.seconds.assets.toFixed(1)} s), catalog ${releases.catalog.id} (${releases.seconds.catalog.toFixed(1)} s)`,
    `tiles: 2,000 drawn from the archive's tiles (z0–8 over its bounds, z9–14 in the extract bbox ${osmBox.join(',')});`,
    `  available per zoom: ${zoomCounts}`,
    `  requested per zoom: ${zoomShare}`,
    `styles: ${calls.length} requests (12 palettes × light/dark; each plain, lang=fr, theme=u1..u4, overlays= of the demo catalog's ${overlays.ids.length} drawable layers alone and in pairs, and all three)`,
    `glyphs: ${glyphs.length} (stacks ${GLYPH_STACKS.map((s) => `"${s}"`).join(', ')} × ranges ${GLYPH_RANGES.map((s) => `${s}-${s + 255}`).join(', ')}); sprites: ${sprites.length} files`,
    '',
    http(`GET /tiles/{z}/{x}/{y} @${TILE_CONNECTIONS}`, tileLoad),
    `${'in-process TileArchive.tile, 64 at once'.padEnd(44)} ${archiveRate.toFixed(0).padStart(7)}/s`,
    `  full stack / in-process read loop: ${x(tileLoad.rps, archiveRate)}`,
    '',
    http(`GET /styles/{style}.json @${ASSET_CONNECTIONS}`, styleLoad),
    http('GET /styles/{style}.json @1', styleAlone),
    local('in-process buildStyle, one at a time', styleBuild),
    local('in-process buildStyle + JSON.stringify', styleEncoded),
    `  full stack p95 / in-process buildStyle p95: ${x(styleLoad.p95, styleBuild.p95)}; throughput full stack / in-process: ${x(styleLoad.rps, styleEncoded.rps)}`,
    `  style generation p95 ≤ ${STYLE_TARGET_P95_MS} ms: ${verdict(styleBuild.p95 <= STYLE_TARGET_P95_MS)} in-process (${ms(styleBuild.p95)});`
      + ` through the full stack at 1 connection: ${verdict(styleAlone.p95 <= STYLE_TARGET_P95_MS)} (${ms(styleAlone.p95)});`
      + ` at ${ASSET_CONNECTIONS}: ${verdict(styleLoad.p95 <= STYLE_TARGET_P95_MS)} (${ms(styleLoad.p95)}, queueing: ${ASSET_CONNECTIONS} in flight on one process)`,
    '',
    http(`GET /glyphs/2/{stack}/{range}.pbf @${ASSET_CONNECTIONS}`, glyphLoad),
    local('in-process Assets.glyphRange', glyphLookup),
    `  full stack / in-process lookup throughput: ${x(glyphLoad.rps, glyphLookup.rps)}`,
    http(`GET /sprite/2/{file} @${ASSET_CONNECTIONS}`, spriteLoad),
    local('in-process Assets.spriteFile', spriteLookup),
    `  full stack / in-process lookup throughput: ${x(spriteLoad.rps, spriteLookup.rps)}`,
  ].join('\n'));
} finally {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await server?.stop();
  await pool.end();
  await env.cleanup();
}
