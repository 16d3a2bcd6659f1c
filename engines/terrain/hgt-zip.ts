import yauzl from 'yauzl';
import { parseHgt, type DemTile } from './hgt.ts';

/** The largest entry we inflate: a 1″ tile is 25,934,402 bytes. */
const MAX_HGT_BYTES = 3601 * 3601 * 2;

export interface HgtEntry {
  /** The entry's file name without folders, e.g. N48W125.hgt. */
  fileName: string;
  bytes: Buffer;
}

/**
 * The `.hgt` entries of a zip (SRTM archives ship one tile per zip), inflated into memory.
 * Entries that declare more bytes than a 1″ tile are refused before inflating.
 */
export async function readHgtZip(zipPath: string): Promise<HgtEntry[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (err, file) => (err ? reject(err) : resolve(file))),
  );
  try {
    const entries: HgtEntry[] = [];
    for await (const entry of zipEntries(zip)) {
      if (!/\.hgt$/i.test(entry.fileName) || entry.fileName.endsWith('/')) continue;
      if (entry.uncompressedSize > MAX_HGT_BYTES) {
        throw new Error(`${zipPath}: ${entry.fileName} claims ${entry.uncompressedSize} bytes, more than a 1″ tile`);
      }
      entries.push({ fileName: entry.fileName.replace(/^.*\//, ''), bytes: await inflate(zip, entry) });
    }
    return entries;
  } finally {
    zip.close();
  }
}

/** Every tile of a zip of `.hgt` files. */
export async function readDemTilesFromZip(zipPath: string): Promise<DemTile[]> {
  const entries = await readHgtZip(zipPath);
  if (entries.length === 0) throw new Error(`${zipPath} holds no .hgt file`);
  return entries.map((entry) => parseHgt(entry.fileName, entry.bytes));
}

async function* zipEntries(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  for (;;) {
    const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
      const onEntry = (e: yauzl.Entry) => {
        zip.off('end', onEnd).off('error', onError);
        resolve(e);
      };
      const onEnd = () => {
        zip.off('entry', onEntry).off('error', onError);
        resolve(null);
      };
      const onError = (err: Error) => {
        zip.off('entry', onEntry).off('end', onEnd);
        reject(err);
      };
      zip.once('entry', onEntry).once('end', onEnd).once('error', onError);
      zip.readEntry();
    });
    if (entry === null) return;
    yield entry;
  }
}

async function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
