/**
 * Our tiler on one NDJSON layer, alone in its process so the parent measures its wall time and
 * peak RSS by themselves:
 *   node --import tsx bench/catalog/build-worker.ts <input.geojsonseq> <out.pmtiles> <work dir> <max zoom>
 * Progress goes to stderr; the last stdout line is JSON: {seconds, peakRssBytes, tiles, bytes, ...}.
 */
import { readNdjsonFeatures } from '../../engines/tiles/ndjson.ts';
import { tileToArchive } from '../../engines/tiles/tiler.ts';
import { selfPeakRssBytes } from '../support/self-memory.ts';

const [input, archivePath, workDir, maxZoom] = process.argv.slice(2);
if (!input || !archivePath || !workDir || !maxZoom) throw new Error('usage: build-worker.ts <input> <out.pmtiles> <work dir> <max zoom>');

const started = performance.now();
let lastLog = 0;
const report = await tileToArchive({
  layers: [{ spec: { id: 'parcels', minZoom: 0, maxZoom: Number(maxZoom) }, features: readNdjsonFeatures(input) }],
  archivePath, workDir,
  metadata: { name: 'parcels', attribution: 'synthetic (bench/catalog/generate.ts)', description: 'benchmark parcels' },
  onProgress: ({ stage, features, tiles }) => {
    const now = performance.now();
    if (now - lastLog < 10_000) return;
    lastLog = now;
    process.stderr.write(`  ours: ${((now - started) / 1000).toFixed(0)} s ${stage}: ${features} features read, ${tiles} tiles\n`);
  },
});
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({
  seconds, peakRssBytes: await selfPeakRssBytes(), tiles: report.archive.addressedTiles, bytes: report.archive.bytes,
  features: report.inputFeatures, streamedTiles: report.streamedTiles, dropped: report.dropped, zooms: report.zooms,
}));
