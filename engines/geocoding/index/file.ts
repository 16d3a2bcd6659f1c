import { open } from 'node:fs/promises';
import {
  INDEX_FORMAT_VERSION, TYPED_ARRAY_TYPES, typedArrayTypeName,
  type AnyTypedArray, type IndexArrayName, type IndexArrays, type IndexMeta, type IndexSections, type TypedArrayTypeName,
} from './sections.ts';

/**
 * One container file for the whole index:
 *   bytes 0..7   magic `CMGEOIDX`
 *   bytes 8..11  container version (uint32 LE)
 *   bytes 12..15 header length in bytes (uint32 LE)
 *   header       JSON {meta, sections: [{name, type, byteOffset, length}]}, padded to 8 bytes
 *   sections     raw little-endian typed-array bytes, each starting on an 8-byte boundary
 * Reading allocates one ArrayBuffer per section and reads its bytes straight into it (no
 * per-row parsing; no single Buffer over 4 GB; reads capped at 1 GiB each).
 */
const MAGIC = 'CMGEOIDX';
const CONTAINER_VERSION = 1;
const PREAMBLE = 16;
const MAX_READ = 1 << 30;

interface SectionEntry {
  name: IndexArrayName;
  type: TypedArrayTypeName;
  byteOffset: number;
  /** Elements. */
  length: number;
}

interface FileHeader {
  meta: IndexMeta;
  sections: SectionEntry[];
}

const align8 = (n: number) => (n + 7) & ~7;

export async function writeIndexFile(file: string, sections: IndexSections): Promise<void> {
  const names = Object.keys(sections.arrays) as IndexArrayName[];
  // Offsets depend on the header length, which depends on the offsets' digits: settle by iterating.
  let headerBytes = Buffer.alloc(0);
  let entries: SectionEntry[] = [];
  for (let guess = 0, attempt = 0; attempt < 5; attempt++) {
    let offset = align8(PREAMBLE + guess);
    entries = names.map((name) => {
      const arr = sections.arrays[name] as AnyTypedArray;
      const entry: SectionEntry = { name, type: typedArrayTypeName(arr), byteOffset: offset, length: arr.length };
      offset = align8(offset + arr.byteLength);
      return entry;
    });
    const header: FileHeader = { meta: sections.meta, sections: entries };
    headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
    if (headerBytes.length === guess) break;
    guess = headerBytes.length;
  }
  const preamble = Buffer.alloc(PREAMBLE);
  preamble.write(MAGIC, 0, 'latin1');
  preamble.writeUInt32LE(CONTAINER_VERSION, 8);
  preamble.writeUInt32LE(headerBytes.length, 12);

  const handle = await open(file, 'w');
  try {
    let position = 0;
    const put = async (buf: Uint8Array) => {
      for (let done = 0; done < buf.length;) {
        const chunk = buf.subarray(done, Math.min(buf.length, done + MAX_READ));
        const { bytesWritten } = await handle.write(chunk, 0, chunk.length, position);
        done += bytesWritten;
        position += bytesWritten;
      }
    };
    await put(preamble);
    await put(headerBytes);
    for (const entry of entries) {
      if (position > entry.byteOffset) throw new Error('index file layout overlap');
      if (position < entry.byteOffset) await put(Buffer.alloc(entry.byteOffset - position));
      const arr = sections.arrays[entry.name] as AnyTypedArray;
      await put(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength));
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class IndexFileError extends Error {}

export async function readIndexFile(file: string): Promise<IndexSections> {
  const handle = await open(file, 'r');
  try {
    const readInto = async (target: Uint8Array, position: number) => {
      for (let done = 0; done < target.length;) {
        const want = Math.min(target.length - done, MAX_READ);
        const { bytesRead } = await handle.read(target, done, want, position + done);
        if (bytesRead === 0) throw new IndexFileError(`${file}: truncated index file`);
        done += bytesRead;
      }
    };
    const preamble = Buffer.alloc(PREAMBLE);
    await readInto(preamble, 0);
    if (preamble.toString('latin1', 0, 8) !== MAGIC) throw new IndexFileError(`${file}: not a canmap geocoding index`);
    const version = preamble.readUInt32LE(8);
    if (version !== CONTAINER_VERSION) throw new IndexFileError(`${file}: container version ${version}, expected ${CONTAINER_VERSION}`);
    const headerBytes = Buffer.alloc(preamble.readUInt32LE(12));
    await readInto(headerBytes, PREAMBLE);
    const header = JSON.parse(headerBytes.toString('utf8')) as FileHeader;
    if (header.meta?.formatVersion !== INDEX_FORMAT_VERSION) {
      throw new IndexFileError(`${file}: index format ${String(header.meta?.formatVersion)}, expected ${INDEX_FORMAT_VERSION}`);
    }
    const arrays: Partial<Record<IndexArrayName, AnyTypedArray>> = {};
    for (const entry of header.sections) {
      const Type = TYPED_ARRAY_TYPES[entry.type];
      if (!Type) throw new IndexFileError(`${file}: section ${entry.name} has unknown type ${entry.type}`);
      // Each section gets its own ArrayBuffer (KDBush.from needs the buffer to start at its data).
      const buffer = new ArrayBuffer(entry.length * Type.BYTES_PER_ELEMENT);
      await readInto(new Uint8Array(buffer), entry.byteOffset);
      arrays[entry.name] = new Type(buffer);
    }
    return { meta: header.meta, arrays: arrays as IndexArrays };
  } finally {
    await handle.close();
  }
}
