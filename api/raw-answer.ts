import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { errors, type Refusal } from '../lib/errors.ts';

/**
 * Answers written straight to a socket, for the times there is no request for Fastify to answer
 * (Node's HTTP parser gave up on it) or its body went quiet: the catalog's JSON, then the
 * connection closes. A client that does not read the answer does not hold the socket past 1 s.
 */
export function endWithAnswer(socket: Socket, err: Refusal): void {
  if (socket.destroyed) return;
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(err.body());
  const head = [`HTTP/1.1 ${err.statusCode} ${STATUS_CODES[err.statusCode] ?? ''}`, 'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`, ...Object.entries({ ...err.headers, connection: 'close' }).map(([k, v]) => `${k}: ${v}`)];
  const giveUp = setTimeout(() => socket.destroy(), 1000).unref();
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => {
    clearTimeout(giveUp);
    socket.destroy();
  });
}

/**
 * Fastify's clientErrorHandler: what Node's HTTP parser refuses before a request exists, in the
 * catalog's words rather than Fastify's generic `{"error":"Bad Request","message":"Client Error"}`.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  switch (err.code) {
    case 'HPE_INVALID_EOF_STATE':
      return endWithAnswer(socket, errors.badRequest('incomplete body: the connection ended before its Content-Length or last chunk'));
    case 'HPE_HEADER_OVERFLOW':
      return endWithAnswer(socket, errors.headersTooLarge());
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return endWithAnswer(socket, errors.headersTimeout());
    default:
      return endWithAnswer(socket, errors.badRequest('malformed HTTP request'));
  }
}
