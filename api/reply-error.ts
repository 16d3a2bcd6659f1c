import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { QueryError } from '../lib/query-error.ts';
import { ReleaseUnavailableError } from '../releases/unavailable.ts';
import { Refusal, asOptimizationError, errors, UnreadableBodyError } from '../lib/errors.ts';
import { contextSchema, schemaErrorCode, validationCode, validationMessage, type SchemaError } from './validation-message.ts';

const INVALID_JSON = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/** A failure of reading the request body (content-type parsers: bad JSON, too large, wrong type, ...). */
function isBodyError(code: string | undefined): boolean {
  return code?.startsWith('FST_ERR_CTP_') === true;
}

/** The media type of a Content-Type header, for the 415 message (bounded: it is echoed back). */
function mediaTypeOf(request: FastifyRequest): string | undefined {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return type ? type.slice(0, 100) : undefined;
}

/**
 * The client went away while its body was being read (Node destroys the request with an
 * ECONNRESET "aborted"): not a fault of ours, and nobody is left to answer.
 */
function isClientAbort(err: unknown, request: FastifyRequest): boolean {
  return request.raw.destroyed && (err as { code?: unknown } | null)?.code === 'ECONNRESET';
}

/**
 * Maps whatever a hook, parser, validator or handler threw onto the catalog in lib/errors.ts;
 * null means a fault of ours (logged and answered 500 by the caller).
 */
export function toRefusal(err: unknown, request: FastifyRequest): Refusal | null {
  const answer = catalogued(err, request);
  return answer && request.routeOptions?.config?.optimizationErrors ? asOptimizationError(answer) : answer;
}

function catalogued(err: unknown, request: FastifyRequest): Refusal | null {
  const bodyCode = schemaErrorCode(contextSchema('body', request.routeOptions?.schema));
  if (bodyCode === 'invalid_body' && !request.is404 && isUnreadableBody(err)) return errors.invalidBody(bodyMessage(err));
  if (err instanceof Refusal) return err;
  if (err instanceof ReleaseUnavailableError) return errors.releaseUnavailable(err.kind);
  if (err instanceof QueryError) return errors.badRequest(err.message);
  const e = err as Partial<FastifyError> & { validation?: SchemaError[] };
  const code = e.code;
  // The not-found route parses bodies too: a path we do not serve stays a 404, whatever its body.
  if (request.is404 && isBodyError(code)) return errors.unservedPath();
  if (Array.isArray(e.validation)) {
    const schema = request.routeOptions?.schema;
    return errors.badRequest(validationMessage(e.validation, e.validationContext, schema), validationCode(e.validation, e.validationContext, schema));
  }
  if (code && INVALID_JSON.has(code)) return errors.badRequest('body is not valid JSON');
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge('request body too large');
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return errors.unsupportedMediaType(mediaTypeOf(request));
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return errors.badRequest('request body size did not match Content-Length');
  return null;
}

/**
 * Routing bodies (volume 1 invalid_body): not JSON, not UTF-8, the wrong media type, or over the
 * route's cap are all "a body we cannot read", answered 400 with that code. A content coding keeps
 * the 415 every JSON route gives.
 */
function isUnreadableBody(err: unknown): boolean {
  if (err instanceof Refusal) return err instanceof UnreadableBodyError;
  return isBodyError((err as Partial<FastifyError> | null)?.code);
}

function bodyMessage(err: unknown): string {
  if (err instanceof UnreadableBodyError && err.statusCode === 400) return err.message;
  const code = (err as Partial<FastifyError> | null)?.code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'body is too large';
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'body is required: a JSON object';
  return 'body must be a JSON object (Content-Type: application/json)';
}

export function sendRefusal(reply: FastifyReply, err: Refusal): FastifyReply {
  reply.code(err.statusCode).headers(err.headers);
  if (err.plainText) reply.type('text/plain; charset=utf-8');
  return reply.send(err.body());
}

/** Answers any thrown value: the catalogued error, or a logged 500 that discloses nothing. */
export function replyWithError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const refusal = toRefusal(err, request);
  if (refusal) return sendRefusal(reply, refusal);
  // Logged once, as aborted, by api/plugins/request-log.ts; the answer goes nowhere.
  if (isClientAbort(err, request)) return sendRefusal(reply, errors.badRequest('request aborted'));
  request.log.error({ err }, 'unhandled error');
  return sendRefusal(reply, errors.internal());
}
