/**
 * Writes the demo's sample DEM, samples/terrain/N48W125.hgt.gz, from the shared 1″ SRTM tile:
 * every third post (a 3″ tile, 1201² posts, each the 1″ tile's own sample at that spot), cropped
 * to lat 48.0–48.5 where the source has data; every post outside the crop is a void.
 *
 *   node --import tsx samples/terrain/make-sample.ts [SOURCE_ZIP]
 *
 * SOURCE_ZIP defaults to ../shared/data/tiles/dem/graphhopper-N48W125.hgt.zip beside the repository.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { hgtBytes, readDemFile } from '../../engines/terrain/dem-file.ts';
import { HGT_VOID, type DemTile } from '../../engines/terrain/hgt.ts';

export const SAMPLE_CROP = { west: -125, south: 48, east: -124, north: 48.5 } as const;
const STEP = 3;

export function cropToThreeArcSeconds(source: DemTile): DemTile {
  if (source.size !== 3601) throw new Error(`${source.name} is not a 1″ tile`);
  const size = 1201;
  const samples = new Int16Array(size * size).fill(HGT_VOID);
  for (let row = 0; row < size; row++) {
    const lat = source.south + 1 - (row * STEP) / 3600;
    if (lat < SAMPLE_CROP.south || lat > SAMPLE_CROP.north) continue;
    for (let col = 0; col < size; col++) {
      const lng = source.west + (col * STEP) / 3600;
      if (lng < SAMPLE_CROP.west || lng > SAMPLE_CROP.east) continue;
      samples[row * size + col] = source.samples[row * STEP * source.size + col * STEP]!;
    }
  }
  return { ...source, size, samples };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const sourceZip = process.argv[2] ?? path.resolve(import.meta.dirname, '../../../shared/data/tiles/dem/graphhopper-N48W125.hgt.zip');
  const [source] = await readDemFile(sourceZip);
  if (!source) throw new Error(`${sourceZip} holds no tile`);
  const out = path.join(import.meta.dirname, `${source.name}.hgt.gz`);
  const bytes = gzipSync(hgtBytes(cropToThreeArcSeconds(source)), { level: 9 });
  await writeFile(out, bytes);
  console.log(`wrote ${out} (${bytes.length} bytes)`);
}
