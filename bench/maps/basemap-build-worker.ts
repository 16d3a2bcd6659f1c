/**
 * Our basemap build (ingest/basemap/build.ts: the OSM read, the coarse national layers, the
 * tiler) alone in its process, so the parent measures its wall time and peak RSS the same way as
 * tilemaker's:
 *   node --import tsx bench/maps/basemap-build-worker.ts <extract.osm.pbf> <provinces.geojson> <out.pmtiles> <work dir>
 *     [--in-memory] [--memory-mb N]
 * `--in-memory` builds with the extract's features in arrays, `--memory-mb` sets the streamed
 * build's budget (BASEMAP_BUILD_MEMORY_MB's default otherwise).
 * Progress goes to stderr; the last stdout line is JSON (BasemapWorkerReport).
 */
import { parseArgs } from 'node:util';
import type { Box } from '../../lib/geo/clip-box.ts';
import { Settings } from '../../schemas/config.ts';
import { buildBasemap } from '../../ingest/basemap/build.ts';
import type { BasemapLayer } from '../../ingest/basemap/feature.ts';
import type { ZoomDrops, ZoomStats } from '../../engines/tiles/tile-output.ts';
import { selfPeakRssBytes } from '../support/self-memory.ts';

export interface BasemapWorkerReport {
  /** Inside the process: buildBasemap's start to its end. */
  seconds: number;
  /** Of those, reading the extract and the coarse layers (before tiling starts). */
  readSeconds: number;
  peakRssBytes: number;
  /** RSS when the build starts (modules loaded) and when every feature is read, just before tiling. */
  rssAtStartBytes: number;
  rssBeforeTilingBytes: number;
  inputFeatures: number;
  features: Record<BasemapLayer, number>;
  skippedOsm: number;
  osmBounds: Box;
  /** Where the detail zooms' land came from (OSM coastline or Natural Earth, and why). */
  coast: string;
  addressedTiles: number;
  tileContents: number;
  archiveBytes: number;
  zooms: ZoomStats[];
  dropped: ZoomDrops[];
  streamedTiles: number;
  scratchBytes: { tables: number; spool: number };
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'in-memory': { type: 'boolean', default: false }, 'memory-mb': { type: 'string' } },
});
const [pbf, provinces, archivePath, workDir] = positionals;
if (!pbf || !provinces || !archivePath || !workDir) throw new Error('usage: basemap-build-worker.ts <extract.osm.pbf> <provinces.geojson> <out.pmtiles> <work dir> [--in-memory] [--memory-mb N]');
const buildMode = values['in-memory'] ? 'in-memory' : 'streamed';
const memoryMb = Number(values['memory-mb'] ?? Settings.BASEMAP_BUILD_MEMORY_MB.schema.default);

const TILING_STARTS = 0.45; // buildBasemap's progress fraction once every feature is read
const rssAtStartBytes = process.memoryUsage().rss;
const started = performance.now();
let readSeconds = 0;
let rssBeforeTilingBytes = 0;
let lastLog = 0;
const build = await buildBasemap({ pbf, provinces }, archivePath, workDir, { memoryMb, mode: buildMode, onProgress: (fraction, message) => {
  const now = performance.now();
  if (fraction >= TILING_STARTS && readSeconds === 0) {
    readSeconds = (now - started) / 1000;
    rssBeforeTilingBytes = process.memoryUsage().rss;
  }
  if (now - lastLog < 5_000) return;
  lastLog = now;
  process.stderr.write(`  ours: ${((now - started) / 1000).toFixed(0)} s ${(fraction * 100).toFixed(0)} % ${message}\n`);
} });
const seconds = (performance.now() - started) / 1000;
const { report } = build;
const result: BasemapWorkerReport = {
  seconds, readSeconds, peakRssBytes: await selfPeakRssBytes(), rssAtStartBytes, rssBeforeTilingBytes,
  inputFeatures: report.inputFeatures, features: build.features, skippedOsm: build.skippedOsm, osmBounds: build.osmBounds, coast: build.coast,
  addressedTiles: report.archive.addressedTiles, tileContents: report.archive.tileContents, archiveBytes: report.archive.bytes,
  zooms: report.zooms, dropped: report.dropped, streamedTiles: report.streamedTiles, scratchBytes: build.scratchBytes,
};
console.log(JSON.stringify(result));
