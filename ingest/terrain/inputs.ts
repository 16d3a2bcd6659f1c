import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DEM_FILE_PATTERN, readDemFile } from '../../engines/terrain/dem-file.ts';
import { HGT_VOID, type DemTile } from '../../engines/terrain/hgt.ts';
import { sha256File } from '../../releases/checksum.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { InvalidInputError } from '../errors.ts';

/** SRTM is a NASA/USGS product in the public domain (the shared tiles and the demo sample derive from it). */
export const SRTM_LICENCE = 'Public domain (NASA/USGS SRTM)';
export const SRTM_ATTRIBUTION = 'Elevation: SRTM (NASA/USGS)';

export interface DemInputs {
  inputs: ManifestInput[];
  tiles: DemTile[];
}

/** Checks a DEM path as a job payload gives it: absolute, a file, a name the reader takes. */
export async function checkDemPath(file: string): Promise<void> {
  if (!path.isAbsolute(file)) throw new InvalidInputError(`DEM file ${JSON.stringify(file)} is not an absolute path`);
  if (!DEM_FILE_PATTERN.test(file)) throw new InvalidInputError(`DEM file ${file} is neither .hgt, .hgt.gz nor a .zip of .hgt files`);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new InvalidInputError(`DEM file ${file} does not exist or is not a file`);
}

/** Every DEM file's tiles and its manifest input (content hash, licence); a tile given twice is refused. */
export async function loadDemInputs(files: readonly string[]): Promise<DemInputs> {
  if (files.length === 0) throw new InvalidInputError('give at least one DEM file (--dem FILE)');
  const inputs: ManifestInput[] = [];
  const tiles: DemTile[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    await checkDemPath(file);
    let read: DemTile[];
    try {
      read = await readDemFile(file);
    } catch (err) {
      throw new InvalidInputError(`DEM file ${file}: ${(err as Error).message}`);
    }
    for (const tile of read) {
      const other = seen.get(tile.name);
      if (other) throw new InvalidInputError(`DEM tile ${tile.name} is given twice (${other} and ${file})`);
      seen.set(tile.name, file);
      tiles.push(tile);
    }
    inputs.push({
      name: `dem/${inputs.length}/${path.basename(file)}`,
      source: file,
      sha256: await sha256File(file),
      licence: SRTM_LICENCE,
      attribution: SRTM_ATTRIBUTION,
    });
  }
  return { inputs, tiles };
}

/** Share of a tile's posts that are voids. */
export function voidFraction(tile: DemTile): number {
  let voids = 0;
  for (const v of tile.samples) if (v === HGT_VOID) voids++;
  return voids / tile.samples.length;
}
