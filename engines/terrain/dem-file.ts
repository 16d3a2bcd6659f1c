import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseHgt, type DemTile } from './hgt.ts';
import { readDemTilesFromZip } from './hgt-zip.ts';

/** A 1″ tile inflated: the most a `.hgt.gz` may hold (the zip reader has the same cap). */
const MAX_HGT_BYTES = 3601 * 3601 * 2;

/** The file names a DEM input may have: an SRTM zip, a bare tile, or a gzip-compressed tile. */
export const DEM_FILE_PATTERN = /\.(zip|hgt|hgt\.gz)$/i;

/**
 * The tiles of one DEM file: `NAME.hgt`, `NAME.hgt.gz` (the tile gzip-compressed: what a terrain
 * release keeps and what the demo sample is) or a zip of `.hgt` entries. The tile's name comes
 * from the file (or entry) name, so it must stay the SRTM name (N48W125).
 */
export async function readDemFile(file: string): Promise<DemTile[]> {
  const name = path.basename(file);
  if (/\.zip$/i.test(name)) return readDemTilesFromZip(file);
  if (/\.hgt\.gz$/i.test(name)) {
    const bytes = gunzipSync(await readFile(file), { maxOutputLength: MAX_HGT_BYTES + 1 });
    return [parseHgt(name.slice(0, -3), bytes)];
  }
  if (/\.hgt$/i.test(name)) return [parseHgt(name, await readFile(file))];
  throw new Error(`${file}: a DEM file is .hgt, .hgt.gz or a .zip of .hgt files`);
}

/** The tile's posts as the `.hgt` format stores them (big-endian int16, row 0 on the north edge). */
export function hgtBytes(tile: DemTile): Buffer {
  const bytes = Buffer.alloc(tile.samples.length * 2);
  for (let i = 0; i < tile.samples.length; i++) bytes.writeInt16BE(tile.samples[i]!, i * 2);
  return bytes;
}
