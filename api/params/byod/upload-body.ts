import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { sniffKind } from '../../../io/byod/accept-upload.ts';
import { FileTooLargeError, IncompleteBodyError, type ByodFiles, type ReceivedFile } from '../../../io/byod/files.ts';
import { BYOD_MAX_BYTES, BYOD_MEDIA_TYPES, BYOD_NAME_MAX_CHARS, type ByodKind } from '../../../schemas/byod-api.ts';
import { errors } from '../../../lib/errors.ts';
import { displayNameOfFile } from './name.ts';

/**
 * The bodies POST /byod takes, each streamed to a temporary file (io/overlays/files.ts) and never
 * held in memory: application/geo+json and application/vnd.pmtiles as they are, or the `file`
 * part of multipart/form-data (@fastify/multipart) with an optional `name` field. Anything past
 * 5 MB stops the reading and is answered 400 on a connection that then closes.
 */

export interface IncomingUpload {
  received: ReceivedFile;
  kind: ByodKind;
  /** The multipart `name` field, as sent. */
  nameField?: string;
  /** The multipart file name, made a display name. */
  fileName?: string;
}

const ACCEPTED = `${BYOD_MEDIA_TYPES.geojson}, ${BYOD_MEDIA_TYPES.pmtiles}, or multipart/form-data with a file field`;
export const MISSING_BODY = `missing body: send a GeoJSON or PMTiles file as ${ACCEPTED}`;
export const TOO_LARGE = `file is over 5 MB: an uploaded overlay may have at most ${BYOD_MAX_BYTES} bytes`;
export const MISSING_BOUNDARY = 'incomplete multipart body: it ended before the closing boundary of the form';
const INCOMPLETE = 'incomplete body: the upload ended before its Content-Length or last chunk';
const wrongType = (type: string | undefined) => `wrong content type ${type ? JSON.stringify(type.slice(0, 100)) : '(none)'}: send ${ACCEPTED}`;

const mediaType = (request: FastifyRequest) => request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();

const codingRefused = (coding: string) => `content encoding "${coding.slice(0, 40)}" is not accepted: send the file uncompressed`;

function refusedCoding(request: FastifyRequest): string | undefined {
  const codings = (request.headers['content-encoding'] ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  return codings.length ? codings.join(', ') : undefined;
}

/** The parser's words for a form that ended before its closing boundary (or inside a part's headers). */
const UNEXPECTED_END = /unexpected end of (multipart data|form)|terminated early/i;

/** A body that stopped short: the client's fault, answered 400 (if anyone is still there to read it). */
function bodyEndedError(err: unknown): Error | undefined {
  if (err instanceof FileTooLargeError) return errors.uploadRefused(TOO_LARGE);
  if (UNEXPECTED_END.test((err as Error | null)?.message ?? '')) return errors.uploadRefused(MISSING_BOUNDARY);
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof IncompleteBodyError || code === 'ECONNRESET' || code === 'FST_MP_PREMATURE_CLOSE') return errors.uploadRefused(INCOMPLETE);
  return undefined;
}

async function receive(files: ByodFiles, stream: Readable, what: string): Promise<ReceivedFile> {
  let received: ReceivedFile;
  try {
    received = await files.receive(stream, BYOD_MAX_BYTES);
  } catch (err) {
    throw bodyEndedError(err) ?? err;
  }
  if (received.bytes === 0) {
    await rm(received.path, { force: true });
    throw errors.uploadRefused(what);
  }
  return received;
}

/**
 * Registers the parsers in the calling plugin's scope only (the rest of the API keeps its JSON
 * parser). A raw body's upload is left in `raw` for the handler; a multipart body is read by the
 * handler (readMultipartUpload).
 */
export async function registerUploadParsers(app: FastifyInstance, files: ByodFiles, raw: WeakMap<FastifyRequest, IncomingUpload>): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([BYOD_MEDIA_TYPES.geojson, BYOD_MEDIA_TYPES.pmtiles], (request, payload, done) => {
    const coding = refusedCoding(request);
    if (coding) return done(errors.uploadRefused(codingRefused(coding)), undefined);
    const kind: ByodKind = mediaType(request) === BYOD_MEDIA_TYPES.pmtiles ? 'pmtiles' : 'geojson';
    receive(files, payload, MISSING_BODY).then(
      (received) => {
        raw.set(request, { received, kind });
        done(null, undefined);
      },
      (err: Error) => done(err, undefined),
    );
  });
  await app.register(multipart, { throwFileSizeLimit: true });
  app.addContentTypeParser('*', (request, _payload, done) => done(errors.uploadRefused(wrongType(mediaType(request))), undefined));
}

/** What the multipart parser throws, in words: every one is the client's body at fault. */
function multipartError(err: unknown): Error {
  const ended = bodyEndedError(err);
  if (ended) return ended;
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return errors.uploadRefused(TOO_LARGE);
    case 'FST_FILES_LIMIT':
      return errors.uploadRefused('send one file per upload, in the file field');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return errors.uploadRefused('too many parts: send a file field and at most a name field');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return errors.uploadRefused(wrongType('multipart/form-data'));
    default:
      return errors.uploadRefused(`malformed multipart body: ${String((err as Error)?.message ?? err).slice(0, 120)}`);
  }
}

/** Reads the multipart body of POST /byod: one `file` part streamed to disk and an optional `name` field. */
export async function readMultipartUpload(request: FastifyRequest, files: ByodFiles): Promise<IncomingUpload> {
  const coding = refusedCoding(request);
  if (coding) throw errors.uploadRefused(codingRefused(coding));
  let upload: IncomingUpload | undefined;
  let nameField: string | undefined;
  try {
    let parts: AsyncIterator<Multipart>;
    try {
      parts = request.parts({
        // One byte over the limit is enough to know a file is too large.
        limits: { fileSize: BYOD_MAX_BYTES + 1, files: 1, fields: 4, parts: 6, fieldSize: 4 * BYOD_NAME_MAX_CHARS + 64, headerPairs: 20 },
      })[Symbol.asyncIterator]();
    } catch (err) {
      throw multipartError(err);
    }
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (err) {
        throw multipartError(err);
      }
      if (next.done) break;
      const part = next.value;
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          throw errors.uploadRefused(`unexpected file field ${JSON.stringify(part.fieldname.slice(0, 40))}: send the file in the field named file`);
        }
        const received = await receive(files, part.file, 'the file field is empty: send a GeoJSON or PMTiles file');
        upload = { received, kind: sniffKind(received.head), fileName: displayNameOfFile(part.filename) };
      } else if (part.fieldname === 'name') {
        if (part.valueTruncated) throw errors.uploadRefused(`name must be at most ${BYOD_NAME_MAX_CHARS} characters`);
        if (typeof part.value !== 'string') throw errors.uploadRefused('name must be plain text');
        nameField = part.value;
      }
    }
  } catch (err) {
    if (upload) await rm(upload.received.path, { force: true });
    throw err;
  }
  if (!upload) throw errors.badRequest(`the multipart body has no file field: send the file as the part named file`);
  return { ...upload, ...(nameField !== undefined ? { nameField } : {}) };
}
