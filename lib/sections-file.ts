/**
 * A file of named typed arrays, as the road graph and its contraction hierarchy are stored:
 *   bytes 0..7   magic (8 latin1 characters)
 *   bytes 8..11  format version (uint32 LE)
 *   bytes 12..15 header length in bytes (uint32 LE)
 *   header       JSON {counts, sections: [{name, byteOffset, byteLength}]}
 *   sections     little-endian typed-array bytes, each on an 8-byte boundary, in the order given
 * Reading gives every section its own ArrayBuffer read straight from the file (no parsing, no
 * Buffer over 2 GiB; reads of at most 1 GiB each); with `shared`, a SharedArrayBuffer that worker
 * threads can view without a copy. Failures are thrown as the caller's error
 * type, worded with the caller's name for the file (`road graph`, `contraction hierarchy`).
 */
import { open } from 'node:fs/promises';

const PREAMBLE = 16;
const MAX_IO = 1 << 30;
const align8 = (n: number) => (n + 7) & ~7;

type TypedArray = Int8Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

export interface SectionEntry {
  name: string;
  byteOffset: number;
  byteLength: number;
}

export interface SectionsFileKind {
  magic: string;
  /** How messages name the file, e.g. `road graph`. */
  what: string;
  fail: (message: string) => Error;
}

/** Writes the sections after the header {counts, sections}; returns the file's size in bytes. */
export async function writeSectionsFile(
  file: string, kind: SectionsFileKind, version: number, counts: object, arrays: readonly [string, TypedArray][],
): Promise<number> {
  // Section offsets depend on the header's length, which depends on the offsets: settle by iterating.
  let headerBytes = Buffer.alloc(0);
  let sections: SectionEntry[] = [];
  for (let guess = 0, attempt = 0; attempt < 8; attempt++) {
    let offset = align8(PREAMBLE + guess);
    sections = arrays.map(([name, array]) => {
      const entry = { name, byteOffset: offset, byteLength: array.byteLength };
      offset = align8(offset + entry.byteLength);
      return entry;
    });
    headerBytes = Buffer.from(JSON.stringify({ counts, sections }), 'utf8');
    if (headerBytes.length === guess) break;
    guess = headerBytes.length;
  }
  const preamble = Buffer.alloc(PREAMBLE);
  preamble.write(kind.magic, 0, 'latin1');
  preamble.writeUInt32LE(version, 8);
  preamble.writeUInt32LE(headerBytes.length, 12);

  const handle = await open(file, 'w');
  try {
    let position = 0;
    const put = async (bytes: Uint8Array) => {
      for (let done = 0; done < bytes.length;) {
        const chunk = bytes.subarray(done, Math.min(bytes.length, done + MAX_IO));
        const { bytesWritten } = await handle.write(chunk, 0, chunk.length, position);
        done += bytesWritten;
        position += bytesWritten;
      }
    };
    await put(preamble);
    await put(headerBytes);
    for (let i = 0; i < sections.length; i++) {
      const entry = sections[i]!;
      if (position < entry.byteOffset) await put(Buffer.alloc(entry.byteOffset - position));
      const array = arrays[i]![1];
      await put(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    }
    await handle.sync();
    return position;
  } finally {
    await handle.close();
  }
}

export interface SectionsFile {
  version: number;
  /** The header's counts, unchecked: the caller validates them. */
  counts: unknown;
  /** The section's bytes, which must be exactly `byteLength` and lie inside the file. */
  read(name: string, byteLength: number): Promise<ArrayBufferLike>;
  /** A zeroed buffer of the same kind as `read` gives (for sections an older file lacks). */
  zeroed(byteLength: number): ArrayBufferLike;
  has(name: string): boolean;
}

/** A typed array of `type` over a section's buffer (an ArrayBuffer, or a SharedArrayBuffer when read `shared`). */
export function sectionArray(type: new (buffer: ArrayBuffer) => TypedArray, buffer: ArrayBufferLike): TypedArray {
  // Every typed-array constructor takes either buffer; TypeScript cannot pick the overload for a union of them.
  return new type(buffer as ArrayBuffer);
}

export interface ReadSectionsOptions {
  /** Sections in SharedArrayBuffers (worker threads then share them) instead of ArrayBuffers. */
  shared?: boolean;
}

/** Opens a sections file, checks its magic, and hands `use` its version, counts and sections. */
export async function readSectionsFile<T>(
  file: string, kind: SectionsFileKind, use: (sections: SectionsFile) => Promise<T>, options: ReadSectionsOptions = {},
): Promise<T> {
  const allocate = (byteLength: number): ArrayBufferLike => (options.shared ? new SharedArrayBuffer(byteLength) : new ArrayBuffer(byteLength));
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const truncated = (part = '') => kind.fail(`${file}: truncated ${kind.what} file${part}`);
    const readExactly = async (target: Uint8Array, position: number) => {
      for (let done = 0; done < target.length;) {
        const { bytesRead } = await handle.read(target, done, Math.min(target.length - done, MAX_IO), position + done);
        if (bytesRead === 0) throw truncated();
        done += bytesRead;
      }
    };
    const preamble = Buffer.alloc(PREAMBLE);
    await readExactly(preamble, 0);
    if (preamble.toString('latin1', 0, 8) !== kind.magic) throw kind.fail(`${file}: not a canmap ${kind.what}`);
    const headerLength = preamble.readUInt32LE(12);
    if (PREAMBLE + headerLength > size) throw truncated(' (header)');
    const headerBytes = Buffer.alloc(headerLength);
    await readExactly(headerBytes, PREAMBLE);
    let header: { counts?: unknown; sections?: SectionEntry[] };
    try {
      header = JSON.parse(headerBytes.toString('utf8')) as typeof header;
    } catch {
      throw kind.fail(`${file}: ${kind.what} header is not JSON`);
    }
    const byName = new Map((Array.isArray(header.sections) ? header.sections : []).map((s) => [s.name, s]));
    return await use({
      version: preamble.readUInt32LE(8),
      counts: header.counts,
      has: (name) => byName.has(name),
      zeroed: allocate,
      async read(name, byteLength) {
        const entry = byName.get(name);
        if (!entry) throw kind.fail(`${file}: ${kind.what} lacks section ${name}`);
        if (entry.byteLength !== byteLength) {
          throw kind.fail(`${file}: ${kind.what} section ${name} has ${entry.byteLength} bytes, expected ${byteLength}`);
        }
        if (!Number.isSafeInteger(entry.byteOffset) || entry.byteOffset < 0 || entry.byteOffset % 8 !== 0 || entry.byteOffset + byteLength > size) {
          throw truncated(` (section ${name} ends beyond ${size} bytes)`);
        }
        const buffer = allocate(byteLength);
        await readExactly(new Uint8Array(buffer), entry.byteOffset);
        return buffer;
      },
    });
  } finally {
    await handle.close();
  }
}
