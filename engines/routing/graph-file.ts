/**
 * Writing and reading `roads.graph`: a sections file (lib/sections-file.ts) with magic `CMROADGR`,
 * one section per array in GRAPH_ARRAY_NAMES order. A file of an older format still read
 * (OLDEST_GRAPH_FORMAT_VERSION) gets the sections added since as zeros (GRAPH_SECTION_SINCE).
 */
import { readSectionsFile, sectionArray, writeSectionsFile, type ReadSectionsOptions, type SectionsFileKind } from '../../lib/sections-file.ts';
import {
  GRAPH_ARRAY_NAMES, GRAPH_FORMAT_VERSION, GRAPH_MAGIC, GRAPH_SECTIONS, GRAPH_SECTION_SINCE, OLDEST_GRAPH_FORMAT_VERSION, countsOf,
  type GraphArrayName, type GraphArrays, type GraphCounts,
} from './graph-format.ts';

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

const GRAPH_FILE: SectionsFileKind = { magic: GRAPH_MAGIC, what: 'road graph', fail: (message) => new GraphFileError(message) };

/** Writes the arrays as one graph file; returns its size in bytes. */
export async function writeGraphFile(file: string, arrays: GraphArrays): Promise<number> {
  const counts = countsOf(arrays);
  checkGraphArrays(arrays, counts);
  return writeSectionsFile(file, GRAPH_FILE, GRAPH_FORMAT_VERSION, counts, GRAPH_ARRAY_NAMES.map((name) => [name, arrays[name]]));
}

/** Reads a graph file written by writeGraphFile, checking its magic, version and layout. */
export async function readGraphFile(file: string, options: ReadSectionsOptions = {}): Promise<GraphArrays> {
  return readSectionsFile(file, GRAPH_FILE, async ({ version, counts: rawCounts, read, zeroed }) => {
    if (version < OLDEST_GRAPH_FORMAT_VERSION || version > GRAPH_FORMAT_VERSION) {
      throw new GraphFileError(
        `${file}: road graph format ${version}, expected ${OLDEST_GRAPH_FORMAT_VERSION} to ${GRAPH_FORMAT_VERSION}; rebuild the roads release`,
      );
    }
    const counts = rawCounts as GraphCounts;
    const arrays: Partial<Record<GraphArrayName, unknown>> = {};
    for (const name of GRAPH_ARRAY_NAMES) {
      const { type, length } = GRAPH_SECTIONS[name];
      arrays[name] = version < (GRAPH_SECTION_SINCE[name] ?? 0)
        ? sectionArray(type, zeroed(length(counts) * type.BYTES_PER_ELEMENT))
        : sectionArray(type, await read(name, length(counts) * type.BYTES_PER_ELEMENT));
    }
    const graph = arrays as GraphArrays;
    checkGraphArrays(graph, counts);
    return graph;
  }, options);
}
