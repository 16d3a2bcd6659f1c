/**
 * One entry point for OSM files of either encoding, chosen by content rather than by name:
 * PBF starts with a 4-byte BlobHeader length and a BlobHeader whose type is "OSMHeader";
 * XML starts with "<" (after a BOM or whitespace), gzipped XML with the gzip magic.
 */
import { open } from 'node:fs/promises';
import { InvalidInputError } from '../errors.ts';
import type { OsmHandlers } from './pbf-primitive-block.ts';
import { readOsm, type OsmReadOptions, type OsmReadSummary } from './pbf-reader.ts';
import { isGzip, readOsmXml, type OsmXmlReadSummary } from './xml-reader.ts';

export type OsmFileSummary = (OsmReadSummary & { format: 'pbf' }) | OsmXmlReadSummary;

export type OsmFileFormat = 'pbf' | 'xml';

const HEAD_BYTES = 16;
/** BlobHeader field 1 (type, length-delimited) of length 9, then the type itself. */
const PBF_HEAD = Buffer.from('\x0a\x09OSMHeader', 'latin1');

/** Reads an OSM PBF or OSM XML (.osm, .osm.gz) file, calling the handlers in file order. */
export async function readOsmFile(path: string, handlers: OsmHandlers, options: OsmReadOptions = {}): Promise<OsmFileSummary> {
  const format = await sniffOsmFormat(path);
  if (format === 'xml') return readOsmXml(path, handlers, options);
  return { format, ...(await readOsm(path, handlers, options)) };
}

export async function sniffOsmFormat(path: string): Promise<OsmFileFormat> {
  const fh = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ENOENT' ? new InvalidInputError(`OSM file not found: ${path}`) : err;
  });
  let head: Buffer;
  try {
    head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(head, 0, HEAD_BYTES, 0);
    head = head.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  if (head.length === 0) throw new InvalidInputError(`not an OSM file: ${path} is empty`);
  if (head.length >= 4 + PBF_HEAD.length && head.subarray(4, 4 + PBF_HEAD.length).equals(PBF_HEAD)) return 'pbf';
  if (isGzip(head) || looksLikeXml(head)) return 'xml';
  throw new InvalidInputError(`not an OSM file: ${path} is neither OSM PBF (no OSMHeader blob at its start) nor XML`);
}

function looksLikeXml(head: Buffer): boolean {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  return i === head.length || head[i] === 0x3c;
}
