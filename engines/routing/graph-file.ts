/**
 * Writing and reading `roads.graph`:
 *   bytes 0..7   magic `CMROADGR`
 *   bytes 8..11  format version (uint32 LE)
 *   bytes 12..15 header length in bytes (uint32 LE)
 *   header       JSON {counts, sections: [{name, byteOffset, byteLength}]}
 *   sections     little-endian typed-array bytes, each on an 8-byte boundary, in GRAPH_ARRAY_NAMES order
 * Reading gives every section its own ArrayBuffer, read straight from the file (no parsing,
 * no Buffer over 2 GiB; reads of at most 1 GiB each). A file of an older format still read
 * (OLDEST_GRAPH_FORMAT_VERSION) gets the sections added since as zeros (GRAPH_SECTION_SINCE).
 */
import { open, type FileHandle } from 'node:fs/promises';
import {
  GRAPH_ARRAY_NAMES, GRAPH_FORMAT_VERSION, GRAPH_MAGIC, GRAPH_SECTIONS, GRAPH_SECTION_SINCE, OLDEST_GRAPH_FORMAT_VERSION, countsOf,
  type GraphArrayName, type GraphArrays, type GraphCounts,
} from './graph-format.ts';

const PREAMBLE = 16;
const MAX_IO = 1 << 30;
const align8 = (n: number) => (n + 7) & ~7;

interface SectionEntry {
  name: GraphArrayName;
  byteOffset: number;
  byteLength: number;
}

interface GraphFileHeader {
  counts: GraphCounts;
  sections: SectionEntry[];
}

export class GraphFileError extends Error {
  override readonly name = 'GraphFileError';
}

/** Throws when an array's type or length does not match the layout for the counts. */
export function checkGraphArrays(arrays: GraphArrays, counts: GraphCounts = countsOf(arrays)): void {
  for (const name of GRAPH_ARRAY_NAMES) {
    const { type, length } = GRAPH_SECTIONS[name];
    const arr = arrays[name];
    if (!(arr instanceof type)) throw new GraphFileError(`graph section ${name} must be a ${type.name}`);
    if (arr.length !== length(counts)) {
      throw new GraphFileError(`graph section ${name} has ${arr.length} entries, expected ${length(counts)}`);
    }
  }
  const last = arrays.firstEdge[counts.nodes];
  if (last !== counts.edges) throw new GraphFileError(`graph firstEdge ends at ${last}, expected ${counts.edges} edges`);
  const end = arrays.stringOffsets[counts.strings];
  if (end !== counts.stringBytes) throw new GraphFileError(`graph string table ends at ${end}, expected ${counts.stringBytes}`);
  checkTurnTable(arrays, counts);
}

/** The turn table must name real edges, bind some mode, and be sorted by (in, out) without repeats (turnForbidden searches it). */
function checkTurnTable({ turnInEdge, turnOutEdge, turnModes }: GraphArrays, counts: GraphCounts): void {
  for (let i = 0; i < counts.turns; i++) {
    const inEdge = turnInEdge[i]!;
    const outEdge = turnOutEdge[i]!;
    if (inEdge >= counts.edges || outEdge >= counts.edges) {
      throw new GraphFileError(`graph turn ${i} (${inEdge} → ${outEdge}) names an edge beyond the ${counts.edges} edges`);
    }
    if (turnModes[i] === 0) throw new GraphFileError(`graph turn ${i} (${inEdge} → ${outEdge}) binds no mode`);
    if (i > 0) {
      const prevIn = turnInEdge[i - 1]!;
      if (prevIn > inEdge || (prevIn === inEdge && turnOutEdge[i - 1]! >= outEdge)) {
        throw new GraphFileError(`graph turns are not sorted by (in, out) without repeats at turn ${i}`);
      }
    }
  }
}

/** Writes the arrays as one graph file; returns its size in bytes. */
export async function writeGraphFile(file: string, arrays: GraphArrays): Promise<number> {
  const counts = countsOf(arrays);
  checkGraphArrays(arrays, counts);
  // Section offsets depend on the header's length, which depends on the offsets: settle by iterating.
  let headerBytes = Buffer.alloc(0);
  let sections: SectionEntry[] = [];
  for (let guess = 0, attempt = 0; attempt < 8; attempt++) {
    let offset = align8(PREAMBLE + guess);
    sections = GRAPH_ARRAY_NAMES.map((name) => {
      const entry = { name, byteOffset: offset, byteLength: arrays[name].byteLength };
      offset = align8(offset + entry.byteLength);
      return entry;
    });
    headerBytes = Buffer.from(JSON.stringify({ counts, sections } satisfies GraphFileHeader), 'utf8');
    if (headerBytes.length === guess) break;
    guess = headerBytes.length;
  }
  const preamble = Buffer.alloc(PREAMBLE);
  preamble.write(GRAPH_MAGIC, 0, 'latin1');
  preamble.writeUInt32LE(GRAPH_FORMAT_VERSION, 8);
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
    if (bytesRead === 0) throw new GraphFileError(`${file}: truncated road graph file`);
    done += bytesRead;
  }
}

/** Reads a graph file written by writeGraphFile, checking its magic, version and layout. */
export async function readGraphFile(file: string): Promise<GraphArrays> {
  const handle = await open(file, 'r');
  try {
    const preamble = Buffer.alloc(PREAMBLE);
    await readExactly(handle, file, preamble, 0);
    if (preamble.toString('latin1', 0, 8) !== GRAPH_MAGIC) throw new GraphFileError(`${file}: not a canmap road graph`);
    const version = preamble.readUInt32LE(8);
    if (version < OLDEST_GRAPH_FORMAT_VERSION || version > GRAPH_FORMAT_VERSION) {
      throw new GraphFileError(
        `${file}: road graph format ${version}, expected ${OLDEST_GRAPH_FORMAT_VERSION} to ${GRAPH_FORMAT_VERSION}; rebuild the roads release`,
      );
    }
    const headerBytes = Buffer.alloc(preamble.readUInt32LE(12));
    await readExactly(handle, file, headerBytes, PREAMBLE);
    let header: GraphFileHeader;
    try {
      header = JSON.parse(headerBytes.toString('utf8')) as GraphFileHeader;
    } catch {
      throw new GraphFileError(`${file}: road graph header is not JSON`);
    }
    const byName = new Map((header.sections ?? []).map((s) => [s.name, s]));
    const arrays: Partial<Record<GraphArrayName, unknown>> = {};
    for (const name of GRAPH_ARRAY_NAMES) {
      const { type, length } = GRAPH_SECTIONS[name];
      if (version < (GRAPH_SECTION_SINCE[name] ?? 0)) {
        arrays[name] = new type(length(header.counts));
        continue;
      }
      const entry = byName.get(name);
      if (!entry) throw new GraphFileError(`${file}: road graph lacks section ${name}`);
      const expected = length(header.counts) * type.BYTES_PER_ELEMENT;
      if (entry.byteLength !== expected) {
        throw new GraphFileError(`${file}: road graph section ${name} has ${entry.byteLength} bytes, expected ${expected}`);
      }
      const buffer = new ArrayBuffer(entry.byteLength);
      await readExactly(handle, file, new Uint8Array(buffer), entry.byteOffset);
      arrays[name] = new type(buffer);
    }
    const graph = arrays as GraphArrays;
    checkGraphArrays(graph, header.counts);
    return graph;
  } finally {
    await handle.close();
  }
}
