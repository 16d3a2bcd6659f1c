/**
 * Writing and reading `roads.ch`: a sections file (lib/sections-file.ts) with magic `CMROADCH`,
 * one section per array in CH_ARRAY_NAMES order. Reading checks the magic, version, every
 * section's size against the counts, that the sections lie inside the file, and the hierarchy's
 * structure (checkChArrays); anything else throws ChFileError.
 */
import { readSectionsFile, sectionArray, writeSectionsFile, type ReadSectionsOptions, type SectionsFileKind } from '../../../lib/sections-file.ts';
import {
  CH_ARRAY_NAMES, CH_FORMAT_VERSION, CH_MAGIC, CH_SECTIONS, ChFileError, ChFormatOutdatedError, chCountsOf, checkChArrays,
  type ChArrayName, type ChArrays, type ChCounts,
} from './format.ts';
import { ContractionHierarchy } from './hierarchy.ts';

const CH_FILE: SectionsFileKind = { magic: CH_MAGIC, what: 'contraction hierarchy', fail: (message) => new ChFileError(message) };

/** Writes the hierarchy as one file; returns its size in bytes. */
export async function writeChFile(file: string, ch: ContractionHierarchy): Promise<number> {
  const arrays = ch.arrays;
  const counts = chCountsOf(arrays);
  checkChArrays(arrays, counts);
  return writeSectionsFile(file, CH_FILE, CH_FORMAT_VERSION, counts, CH_ARRAY_NAMES.map((name) => [name, arrays[name]]));
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** Reads a file written by writeChFile. */
export async function readChFile(file: string, options: ReadSectionsOptions = {}): Promise<ContractionHierarchy> {
  return readSectionsFile(file, CH_FILE, async ({ version, counts, read }) => {
    if (typeof version === 'number' && version < CH_FORMAT_VERSION) {
      throw new ChFormatOutdatedError(`${file}: contraction hierarchy format ${version} (without turn restrictions); rebuild the release for format ${CH_FORMAT_VERSION}`, version);
    }
    if (version !== CH_FORMAT_VERSION) throw new ChFileError(`${file}: contraction hierarchy format ${version}, expected ${CH_FORMAT_VERSION}`);
    const c = counts as Partial<ChCounts> | undefined;
    if (!c || ![c.nodes, c.edges, c.upArcs, c.downArcs, c.regionNodes, c.regionEdges].every(isCount)) {
      throw new ChFileError(`${file}: contraction hierarchy header lacks its counts`);
    }
    const arrays: Partial<Record<ChArrayName, unknown>> = {};
    for (const name of CH_ARRAY_NAMES) {
      const { type, length } = CH_SECTIONS[name];
      arrays[name] = sectionArray(type, await read(name, length(c as ChCounts) * type.BYTES_PER_ELEMENT));
    }
    const ch = arrays as ChArrays;
    checkChArrays(ch, c as ChCounts);
    return new ContractionHierarchy(ch);
  }, options);
}
