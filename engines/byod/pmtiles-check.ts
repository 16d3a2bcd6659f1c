import { bytesToHeader, Compression, ResolvedValueCache, TileType, tileIdToZxy, type Entry, type Header } from 'pmtiles';
import { QueryError } from '../../lib/query-error.ts';
import type { OverlayBounds } from './geojson.ts';
import { ArchiveDecodeError, ArchiveLimitError, BufferSource, DIRECTORY_LIMITS, DirectoryBudget, metadataDecompress } from './pmtiles-read.ts';

/**
 * Checks an uploaded PMTiles archive before it is accepted, reading it through the `pmtiles`
 * package (header, root and leaf directories, metadata) plus checks of our own: the magic and
 * version 3, every section inside the file, the root in the first 16 KiB, every directory
 * decoding with ascending tile ids inside the header's zooms, every tile inside the tile data,
 * sane bounds and zooms, vector (MVT) tiles, gzip tiles that really are gzip, and the work of
 * reading its directories within DIRECTORY_LIMITS (pmtiles-read.ts: bytes inflated and entries per
 * directory and in all, depth). A refusal is a QueryError (400) naming what is wrong or which bound.
 * Runs on a worker thread (upload-check-worker.ts), never on the API's event loop.
 */

export interface CheckedArchive {
  minZoom: number;
  maxZoom: number;
  bounds: OverlayBounds;
  /** The vector_layers ids of the metadata (source-layer names for a style). */
  layers: string[];
  tileCompression: number;
  addressedTiles: number;
}

const HEADER_BYTES = 127;
const FIRST_FETCH_BYTES = 16_384;
const MAGIC = 'PMTiles';
/** The `pmtiles` reader's own ceiling (tile ids beyond zoom 26 are not safe integers). */
const MAX_ZOOM = 26;

class Invalid extends QueryError {
  constructor(problem: string) {
    super(`invalid PMTiles: ${problem}`);
  }
}

const name = (table: Record<number, string>, value: number) => table[value]?.toLowerCase() ?? `code ${value}`;

export async function checkPmtiles(bytes: Uint8Array): Promise<CheckedArchive> {
  if (bytes.length < HEADER_BYTES) throw new Invalid(`the file has ${bytes.length} bytes, fewer than the 127-byte header`);
  if (Buffer.from(bytes.subarray(0, 7)).toString('latin1') !== MAGIC) throw new Invalid('the file does not start with the PMTiles magic bytes');
  if (bytes[7] !== 3) throw new Invalid(`spec version ${bytes[7]}; only version 3 is supported`);

  const header = bytesToHeader(new Uint8Array(bytes.subarray(0, HEADER_BYTES)).buffer);
  checkHeader(header, bytes.length);
  const source = new BufferSource(bytes);
  const cache = new ResolvedValueCache(16, false, new DirectoryBudget().decompress);
  const entries = await readAllEntries(cache, source, header);
  if (entries.tiles === 0) throw new Invalid('the archive holds no tiles');
  checkTiles(entries.tileEntries, header, bytes);
  return {
    minZoom: header.minZoom,
    maxZoom: header.maxZoom,
    bounds: [header.minLon, header.minLat, header.maxLon, header.maxLat],
    layers: await vectorLayers(source, header),
    tileCompression: header.tileCompression,
    addressedTiles: entries.tiles,
  };
}

function checkHeader(h: Header, fileBytes: number): void {
  const sections: [string, number, number][] = [
    ['root directory', h.rootDirectoryOffset, h.rootDirectoryLength],
    ['metadata', h.jsonMetadataOffset, h.jsonMetadataLength],
    ['leaf directories', h.leafDirectoryOffset, h.leafDirectoryLength ?? 0],
    ['tile data', h.tileDataOffset, h.tileDataLength ?? 0],
  ];
  for (const [what, offset, length] of sections) {
    if (offset < HEADER_BYTES || offset + length > fileBytes) {
      throw new Invalid(`the ${what} (offset ${offset}, length ${length}) is not inside the file of ${fileBytes} bytes`);
    }
  }
  if (h.rootDirectoryLength === 0) throw new Invalid('the root directory is empty');
  if (h.rootDirectoryOffset + h.rootDirectoryLength > FIRST_FETCH_BYTES) throw new Invalid('the root directory does not end within the first 16 KiB');
  if (h.tileType !== TileType.Mvt) throw new Invalid(`tile type ${name(TileType, h.tileType)}; only vector tiles (mvt) are accepted`);
  if (h.tileCompression !== Compression.Gzip && h.tileCompression !== Compression.None) {
    throw new Invalid(`tile compression ${name(Compression, h.tileCompression)} is not supported; use gzip or none`);
  }
  if (h.internalCompression !== Compression.Gzip && h.internalCompression !== Compression.None) {
    throw new Invalid(`internal compression ${name(Compression, h.internalCompression)} is not supported; use gzip or none`);
  }
  if (h.minZoom > h.maxZoom || h.maxZoom > MAX_ZOOM) throw new Invalid(`zooms ${h.minZoom} to ${h.maxZoom} are not a range within 0 to ${MAX_ZOOM}`);
  const lonOk = (v: number) => Number.isFinite(v) && v >= -180 && v <= 180;
  const latOk = (v: number) => Number.isFinite(v) && v >= -90 && v <= 90;
  if (![h.minLon, h.maxLon].every(lonOk) || ![h.minLat, h.maxLat].every(latOk) || h.minLon > h.maxLon || h.minLat > h.maxLat) {
    throw new Invalid(`bounds ${[h.minLon, h.minLat, h.maxLon, h.maxLat].join(',')} are not west,south,east,north within -180..180 and -90..90`);
  }
}

interface ReadEntries {
  tileEntries: Entry[];
  tiles: number;
}

/** Every tile entry of the root and its leaves, checking each directory on the way. */
async function readAllEntries(cache: ResolvedValueCache, source: BufferSource, h: Header): Promise<ReadEntries> {
  const out: ReadEntries = { tileEntries: [], tiles: 0 };
  let lastTileId = -1;
  let visited = 0;
  const minId = firstTileIdOf(h.minZoom);
  const endId = firstTileIdOf(h.maxZoom + 1);
  const walk = async (offset: number, length: number, depth: number, where: string): Promise<void> => {
    if (depth > DIRECTORY_LIMITS.depth) {
      throw new Invalid(`leaf directories nest ${depth} levels deep counting the root; at most ${DIRECTORY_LIMITS.depth} levels (the root and ${DIRECTORY_LIMITS.depth - 1} of leaves) are accepted`);
    }
    let entries: Entry[];
    try {
      entries = await cache.getDirectory(source, offset, length, h);
    } catch (err) {
      if (err instanceof ArchiveLimitError) throw new Invalid(err.whole ? err.message : `the ${where} ${err.message}`);
      throw new Invalid(`the ${where} does not decode (${reason(err)})`);
    }
    // The budget counts directories as inflated; a directory listed twice is walked (and counted) twice.
    visited += entries.length;
    if (visited > DIRECTORY_LIMITS.totalEntries) {
      throw new Invalid(`the directories list more than ${DIRECTORY_LIMITS.totalEntries} entries in all; at most ${DIRECTORY_LIMITS.totalEntries} are accepted`);
    }
    for (const e of entries) {
      if (![e.tileId, e.offset, e.length, e.runLength].every((v) => Number.isSafeInteger(v) && v >= 0)) {
        throw new Invalid(`the ${where} holds a malformed entry`);
      }
      if (e.tileId < minId || e.tileId >= endId) {
        throw new Invalid(`the ${where} has tile ${zxy(e.tileId)} outside zooms ${h.minZoom} to ${h.maxZoom}`);
      }
      if (e.runLength === 0) {
        if (e.length === 0 || e.offset + e.length > (h.leafDirectoryLength ?? 0)) {
          throw new Invalid(`a leaf directory (offset ${e.offset}, length ${e.length}) is not inside the leaf directories section`);
        }
        await walk(h.leafDirectoryOffset + e.offset, e.length, depth + 1, 'leaf directory');
        continue;
      }
      if (e.tileId <= lastTileId) throw new Invalid(`the ${where} lists tile ${zxy(e.tileId)} out of order or twice`);
      lastTileId = e.tileId + e.runLength - 1;
      if (lastTileId >= endId) throw new Invalid(`the ${where} has a run of tiles past zoom ${h.maxZoom}`);
      out.tileEntries.push(e);
      out.tiles += e.runLength;
    }
  };
  await walk(h.rootDirectoryOffset, h.rootDirectoryLength, 1, 'root directory');
  return out;
}

function checkTiles(entries: Entry[], h: Header, bytes: Uint8Array): void {
  const dataLength = h.tileDataLength ?? 0;
  const checked = new Set<number>();
  for (const e of entries) {
    if (e.length === 0 || e.offset + e.length > dataLength) {
      throw new Invalid(`tile ${zxy(e.tileId)} (offset ${e.offset}, length ${e.length}) is not inside the tile data`);
    }
    if (h.tileCompression !== Compression.Gzip || checked.has(e.offset)) continue;
    checked.add(e.offset);
    const at = h.tileDataOffset + e.offset;
    if (e.length < 18 || bytes[at] !== 0x1f || bytes[at + 1] !== 0x8b) {
      throw new Invalid(`tile ${zxy(e.tileId)} is not gzip although the header says tiles are gzip`);
    }
  }
}

async function vectorLayers(source: BufferSource, h: Header): Promise<string[]> {
  if (h.jsonMetadataLength === 0) return [];
  let metadata: unknown;
  try {
    const raw = (await source.getBytes(h.jsonMetadataOffset, h.jsonMetadataLength)).data;
    metadata = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await metadataDecompress(raw, h.internalCompression)));
  } catch (err) {
    if (err instanceof ArchiveLimitError) throw new Invalid(`the metadata ${err.message}`);
    throw new Invalid(`the metadata is not JSON (${reason(err)})`);
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw new Invalid('the metadata is not a JSON object');
  const layers = (metadata as { vector_layers?: unknown }).vector_layers;
  if (layers === undefined) return [];
  if (!Array.isArray(layers) || !layers.every((l) => typeof l?.id === 'string')) {
    throw new Invalid('metadata vector_layers must be an array of objects with a string id');
  }
  return layers.map((l: { id: string }) => l.id);
}

/** The first tile id of zoom z: the tiles of all lower zooms, (4^z - 1) / 3. */
function firstTileIdOf(z: number): number {
  return (4 ** z - 1) / 3;
}

function zxy(tileId: number): string {
  try {
    return tileIdToZxy(tileId).join('/');
  } catch {
    return `id ${tileId}`;
  }
}

function reason(err: unknown): string {
  if (err instanceof ArchiveDecodeError) return err.message;
  return (err as Error)?.message?.slice(0, 120) ?? 'unreadable';
}
