/**
 * Writing and reading `roads.ch`, laid out like `roads.graph` (graph-file.ts):
 *   bytes 0..7   magic `CMROADCH`
 *   bytes 8..11  format version (uint32 LE)
 *   bytes 12..15 header length in bytes (uint32 LE)
 *   header       JSON {counts, sections: [{name, byteOffset, byteLength}]}
 *   sections     little-endian typed-array bytes, each on an 8-byte boundary, in CH_ARRAY_NAMES order
 * Reading checks the magic, version, every section's size against the counts, that the sections
 * lie inside the file, and the hierarchy's structure (checkChArrays); anything else throws ChFileError.
 */
import { open, type FileHandle } from 'node:fs/promises';
import {
  CH_ARRAY_NAMES, CH_FORMAT_VERSION, CH_MAGIC, CH_SECTIONS, ChFileError, chCountsOf, checkChArrays,
  type ChArrayName, type ChArrays, type ChCounts,
} from './format.ts';
import { ContractionHierarchy } from './hierarchy.ts';

const PREAMBLE = 16;
const MAX_IO = 1 << 30;
const align8 = (n: number) => (n + 7) & ~7;

interface SectionEntry {
  name: ChArrayName;
  byteOffset: number;
  byteLength: number;
}

interface ChFileHeader {
  counts: ChCounts;
  sections: SectionEntry[];
}

/** Writes the hierarchy as one file; returns its size in bytes. */
export async function writeChFile(file: string, ch: ContractionHierarchy): Promise<number> {
  const arrays = ch.arrays;
  const counts = chCountsOf(arrays);
  checkChArrays(arrays, counts);
  // Section offsets depend on the header's length and the other way round: settle by iterating.
  let headerBytes = Buffer.alloc(0);
  let sections: SectionEntry[] = [];
  for (let guess = 0, attempt = 0; attempt < 8; attempt++) {
    let offset = align8(PREAMBLE + guess);
    sections = CH_ARRAY_NAMES.map((name) => {
      const entry = { name, byteOffset: offset, byteLength: arrays[name].byteLength };
      offset = align8(offset + entry.byteLength);
      return entry;
    });
    headerBytes = Buffer.from(JSON.stringify({ counts, sections } satisfies ChFileHeader), 'utf8');
    if (headerBytes.length === guess) break;
    guess = headerBytes.length;
  }
  const preamble = Buffer.alloc(PREAMBLE);
  preamble.write(CH_MAGIC, 0, 'latin1');
  preamble.writeUInt32LE(CH_FORMAT_VERSION, 8);
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
    for (const entry of sections) {
      if (position < entry.byteOffset) await put(Buffer.alloc(entry.byteOffset - position));
      const arr = arrays[entry.name];
      await put(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength));
    }
    await handle.sync();
    return position;
  } finally {
    await handle.close();
  }
}

async function readExactly(handle: FileHandle, file: string, target: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < target.length;) {
    const want = Math.min(target.length - done, MAX_IO);
    const { bytesRead } = await handle.read(target, done, want, position + done);
    if (bytesRead === 0) throw new ChFileError(`${file}: truncated contraction hierarchy file`);
    done += bytesRead;
  }
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** Reads a file written by writeChFile. */
export async function readChFile(file: string): Promise<ContractionHierarchy> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const preamble = Buffer.alloc(PREAMBLE);
    await readExactly(handle, file, preamble, 0);
    if (preamble.toString('latin1', 0, 8) !== CH_MAGIC) throw new ChFileError(`${file}: not a canmap contraction hierarchy`);
    const version = preamble.readUInt32LE(8);
    if (version !== CH_FORMAT_VERSION) {
      throw new ChFileError(`${file}: contraction hierarchy format ${version}, expected ${CH_FORMAT_VERSION}`);
    }
    const headerLength = preamble.readUInt32LE(12);
    if (PREAMBLE + headerLength > size) throw new ChFileError(`${file}: truncated contraction hierarchy file (header)`);
    const headerBytes = Buffer.alloc(headerLength);
    await readExactly(handle, file, headerBytes, PREAMBLE);
    let header: ChFileHeader;
    try {
      header = JSON.parse(headerBytes.toString('utf8')) as ChFileHeader;
    } catch {
      throw new ChFileError(`${file}: contraction hierarchy header is not JSON`);
    }
    const c = header.counts;
    if (!c || !isCount(c.nodes) || !isCount(c.edges) || !isCount(c.upArcs) || !isCount(c.downArcs)) {
      throw new ChFileError(`${file}: contraction hierarchy header lacks its counts`);
    }
    const byName = new Map((header.sections ?? []).map((s) => [s.name, s]));
    const arrays: Partial<Record<ChArrayName, unknown>> = {};
    for (const name of CH_ARRAY_NAMES) {
      const entry = byName.get(name);
      if (!entry) throw new ChFileError(`${file}: contraction hierarchy lacks section ${name}`);
      const { type, length } = CH_SECTIONS[name];
      const expected = length(c) * type.BYTES_PER_ELEMENT;
      if (entry.byteLength !== expected) {
        throw new ChFileError(`${file}: contraction hierarchy section ${name} has ${entry.byteLength} bytes, expected ${expected}`);
      }
      if (!isCount(entry.byteOffset) || entry.byteOffset % 8 !== 0 || entry.byteOffset + expected > size) {
        throw new ChFileError(`${file}: truncated contraction hierarchy file (section ${name} ends beyond ${size} bytes)`);
      }
      const buffer = new ArrayBuffer(expected);
      await readExactly(handle, file, new Uint8Array(buffer), entry.byteOffset);
      arrays[name] = new type(buffer);
    }
    const ch = arrays as ChArrays;
    checkChArrays(ch, c);
    return new ContractionHierarchy(ch);
  } finally {
    await handle.close();
  }
}
