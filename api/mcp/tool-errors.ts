import type { FastifyBaseLogger } from 'fastify';
import { QueryError } from '../../lib/query-error.ts';
import { errors, Refusal } from '../../lib/errors.ts';
import { ReleaseUnavailableError } from '../../releases/unavailable.ts';

/**
 * A refusal as a tool reports it: the HTTP answer's JSON body (its `code` and message) with its
 * HTTP status as `http_status` (a member no body of ours uses: optimization bodies carry a `status` of their own).
 */
export function refusalJson(refusal: Refusal): Record<string, unknown> {
  const body = refusal.body();
  return { http_status: refusal.statusCode, ...(typeof body === 'string' ? { error: body } : body) };
}

/**
 * What a tool call's failure answers, in the catalog's words (as api/reply-error.ts maps an HTTP
 * request's): a Refusal as it is, a kind with nothing servable 503, a bad query 400; anything else
 * is a fault of ours, logged and answered 500 without its details.
 */
export function refusalOf(err: unknown, log: FastifyBaseLogger): Refusal {
  if (err instanceof Refusal) return err;
  if (err instanceof ReleaseUnavailableError) return errors.releaseUnavailable(err.kind);
  if (err instanceof QueryError) return errors.badRequest(err.message);
  log.error({ err }, 'tool call failed');
  return errors.internal();
}
