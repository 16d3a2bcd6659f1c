import type { FastifyRequest } from 'fastify';

/** Replaces the value of every `key=` query parameter, so logged URLs never carry an API key. */
export function redactKeyParam(url: string): string {
  return url.includes('key=') ? url.replace(/([?&]key=)[^&#]*/gi, '$1[redacted]') : url;
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
