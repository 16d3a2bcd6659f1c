import { isUtf8 } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../lib/errors.ts';

/** application/json and the structured-syntax +json types (RFC 6839), whatever their parameters. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w!#$&^.-]+\+)?json(?:;|$)/;
const UTF8 = new Set(['utf-8', 'utf8']);

/** The content codings of a body other than identity (the one we accept). */
function contentCodings(request: FastifyRequest): string[] {
  const header = request.headers['content-encoding'];
  if (header === undefined) return [];
  return header.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
}

/** RFC 8259: JSON exchanged between systems is UTF-8, so any other declared charset is refused. */
function declaredCharset(request: FastifyRequest): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers['content-type'] ?? '');
  return match?.[1]?.toLowerCase();
}

/**
 * The one body parser of the API, for every route that takes a body (all take JSON):
 * - only JSON media types are parsed; any other type reaches Fastify's "no parser" path and is
 *   answered 415 (api/reply-error.ts), while text/plain loses the parser Fastify ships with;
 * - a body with a Content-Encoding other than identity is refused with 415 rather than decoded,
 *   so the body limit always bounds what is parsed and no decompression bomb can be sent;
 * - bytes that are not UTF-8 are refused with 400, never read with replacement characters;
 * - `__proto__` keys, and `constructor` keys holding a `prototype`, are dropped while parsing, so
 *   such a body is judged by the route's schema like any other and cannot pollute prototypes;
 * - the not-found route reads but never parses a body: an unserved path stays a plain 404.
 */
export const jsonBodyPlugin = fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('remove', 'remove');
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'buffer' }, (request, body: Buffer, done) => {
      if (request.is404) return done(null, undefined);
      const codings = contentCodings(request);
      if (codings.length > 0) return done(errors.unsupportedContentEncoding(codings.join(', ')), undefined);
      const charset = declaredCharset(request);
      if (charset !== undefined && !UTF8.has(charset)) return done(errors.unsupportedCharset(charset), undefined);
      if (!isUtf8(body)) return done(errors.bodyNotUtf8(), undefined);
      parseJson(request, body.toString('utf8'), done);
    });
  },
  { name: 'canmap-json-body' },
);
