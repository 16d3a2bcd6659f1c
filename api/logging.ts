import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Query parameters whose values are credentials: the API key and the one-use login token. */
const SECRET_PARAMS = new Set(['key', 'token']);

/** A query parameter's name as the query-string parser reads it ('+' is a space, %XX decoded); the raw name when undecodable. */
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * The URL with the value of every credential parameter replaced, judged by the decoded name so
 * that `?%6Bey=` (which authenticates as `key`) is redacted too; the rest stays as sent.
 */
export function redactKeyParam(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  const pairs = url.slice(q + 1, end).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    return eq >= 0 && SECRET_PARAMS.has(decodedName(name).toLowerCase()) ? `${name}=[redacted]` : pair;
  });
  return `${url.slice(0, q + 1)}${pairs.join('&')}${url.slice(end)}`;
}

/**
 * Fastify's own per-request lines ("incoming request", "request completed": two a request) are
 * off; api/plugins/request-log.ts writes the one line of each request instead.
 */
export function requestLogController(): LogController {
  return new LogController({ disableRequestLogging: true });
}

const ms = (elapsed: number) => Math.round(elapsed * 10) / 10;

/** The one line of an answered request. */
export function logResponse(request: FastifyRequest, reply: FastifyReply, elapsedMs: number): void {
  request.log.info({
    method: request.method,
    url: redactKeyParam(request.url),
    statusCode: reply.statusCode,
    responseTime: ms(elapsedMs),
  }, 'request');
}

/** The one line of a request whose connection closed before it was answered: clients do that, so info, no stack. */
export function logAbortedRequest(request: FastifyRequest, elapsedMs: number): void {
  request.log.info({ method: request.method, url: redactKeyParam(request.url), aborted: true, responseTime: ms(elapsedMs) }, 'request aborted');
}

/**
 * pino options for the API: the `req` serializer logs the URL with the key redacted and no
 * headers; `redact` covers anyone who logs headers by hand.
 */
export function loggerOptions(level: string, given: boolean | object | undefined): false | Record<string, unknown> {
  if (given === false) return false;
  return {
    level,
    ...(typeof given === 'object' ? given : {}),
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactKeyParam(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]'],
      censor: '[redacted]',
    },
  };
}
