import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ReleaseUnavailableError } from '../releases/unavailable.ts';
import { ApiError, errors } from './errors.ts';
import { validationMessage, type SchemaError } from './validation-message.ts';

const INVALID_JSON = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/** A failure of reading the request body (content-type parsers: bad JSON, too large, wrong type, ...). */
function isBodyError(err: unknown, code: string | undefined, statusCode: number | undefined): boolean {
  // secure-json-parse rejects __proto__/constructor keys with a SyntaxError marked 400.
  return code?.startsWith('FST_ERR_CTP_') === true || (err instanceof SyntaxError && statusCode === 400);
}

/**
 * Maps whatever a hook, parser, validator or handler threw onto the catalog in api/errors.ts;
 * null means a fault of ours (logged and answered 500 by the caller).
 */
export function toApiError(err: unknown, request: FastifyRequest): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof ReleaseUnavailableError) return errors.releaseUnavailable(err.kind);
  const e = err as Partial<FastifyError> & { validation?: SchemaError[] };
  const code = e.code;
  // The not-found route parses bodies too: a path we do not serve stays a 404, whatever its body.
  if (request.is404 && isBodyError(err, code, e.statusCode)) return errors.unservedPath();
  if (Array.isArray(e.validation)) {
    return errors.badRequest(validationMessage(e.validation, e.validationContext, request.routeOptions?.schema));
  }
  if (code && INVALID_JSON.has(code)) return errors.badRequest('body is not valid JSON');
  if (err instanceof SyntaxError && e.statusCode === 400) return errors.badRequest('body is not valid JSON');
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge('request body too large');
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return errors.unsupportedMediaType('unsupported content type');
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return errors.badRequest('request body size did not match Content-Length');
  return null;
}

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  reply.code(err.statusCode).headers(err.headers);
  if (err.plainText) reply.type('text/plain; charset=utf-8');
  return reply.send(err.body());
}

/** Answers any thrown value: the catalogued error, or a logged 500 that discloses nothing. */
export function replyWithError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(err, request);
  if (apiError) return sendApiError(reply, apiError);
  request.log.error({ err }, 'unhandled error');
  return sendApiError(reply, errors.internal());
}
