/**
 * Streaming OSM XML reader (.osm, and .osm.gz gunzipped on the fly): the file is read in chunks
 * through our own tokenizer (xml-tokenizer.ts), never held whole, and nodes, ways and relations
 * reach the same handlers as the PBF reader's, with the same objects, in file order.
 */
import type { ReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InvalidInputError } from '../errors.ts';
import type { OsmFileHeader } from './pbf-header-block.ts';
import type { OsmHandlers } from './pbf-primitive-block.ts';
import type { OsmReadOptions } from './pbf-reader.ts';
import { OsmXmlBuilder } from './xml-osm-builder.ts';
import { XmlSyntaxError, XmlTokenizer } from './xml-tokenizer.ts';

export interface OsmXmlReadSummary {
  format: 'xml';
  /** writingProgram from <osm generator>, bbox from <bounds> (or osmosis' <bound>); no features. */
  header: OsmFileHeader;
  gzip: boolean;
  /** Entities in the file, whether decoded or not (a kind without a handler is only counted). */
  nodes: number;
  ways: number;
  relations: number;
  /** Entities skipped as deleted (visible="false", action="delete"). */
  deleted: number;
  /** Bytes of the file (compressed ones for .gz). */
  bytesRead: number;
  totalBytes: number;
  /** Bytes of XML text (after gunzip). */
  xmlBytes: number;
  /** XML carries no sort declaration, so the reader always reads to the end. */
  stoppedEarly: false;
}

const CHUNK_BYTES = 1 << 16;

export function isGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** Reads an OSM XML file, calling the handlers for every node, way and relation in file order. */
export async function readOsmXml(path: string, handlers: OsmHandlers, options: OsmReadOptions = {}): Promise<OsmXmlReadSummary> {
  const fh = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ENOENT' ? new InvalidInputError(`OSM XML file not found: ${path}`) : err;
  });
  try {
    const totalBytes = (await fh.stat()).size;
    if (totalBytes === 0) throw new InvalidInputError(`not an OSM XML file: ${path} is empty`);
    const head = Buffer.alloc(2);
    await fh.read(head, 0, 2, 0);
    const gzip = path.endsWith('.gz') || isGzip(head);

    const input = fh.createReadStream({ start: 0, highWaterMark: CHUNK_BYTES, autoClose: false });
    let source: Readable = input;
    if (gzip) {
      const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
      // errors of either stream end the iteration below
      pipeline(input, gunzip, () => undefined);
      source = gunzip;
    }
    const builder: OsmXmlBuilder = new OsmXmlBuilder(handlers, (message): XmlSyntaxError => tokenizer.error(message));
    const tokenizer: XmlTokenizer = new XmlTokenizer(builder);
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        tokenizer.write(chunk);
        options.onProgress?.(input.bytesRead, totalBytes);
      }
      tokenizer.end();
    } catch (err) {
      throw describeError(err, path, gzip, input, tokenizer);
    }
    return {
      format: 'xml',
      header: builder.header,
      gzip,
      ...builder.counts,
      bytesRead: input.bytesRead,
      totalBytes,
      xmlBytes: tokenizer.bytes,
      stoppedEarly: false,
    };
  } finally {
    await fh.close();
  }
}

/** Syntax and gzip errors name the file and where reading stopped; handler errors pass through. */
function describeError(err: unknown, path: string, gzip: boolean, input: ReadStream, tokenizer: XmlTokenizer): unknown {
  if (err instanceof XmlSyntaxError) {
    const where = `line ${err.line}, byte ${err.byte}${gzip ? ' of the decompressed XML' : ''}`;
    return new InvalidInputError(`invalid OSM XML file ${path}: ${where}: ${err.message}`);
  }
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (gzip && typeof code === 'string' && code.startsWith('Z_')) {
    const { line } = tokenizer.location();
    const what = code === 'Z_BUF_ERROR' ? 'truncated gzip file' : 'corrupt gzip file';
    return new InvalidInputError(
      `${what} ${path}: ${(err as Error).message} after ${input.bytesRead} of its bytes ` +
        `(${tokenizer.bytes} bytes of XML, to line ${line}, were read)`,
    );
  }
  return err;
}
