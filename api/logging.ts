import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Replaces the value of every `key=` query parameter, so logged URLs never carry an API key. */
export function redactKeyParam(url: string): string {
  return url.includes('key=') || url.includes('token=') ? url.replace(/([?&](?:key|token)=)[^&#]*/gi, '$1[redacted]') : url;
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
