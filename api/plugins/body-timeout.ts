import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import fp from 'fastify-plugin';
import { errors } from '../../lib/errors.ts';
import { endWithAnswer } from '../raw-answer.ts';

/** How many times per idle period the socket is looked at: a stall is seen within 1.25 × the timeout. */
const CHECKS_PER_PERIOD = 4;

/** A Content-Length above 0, or a chunked body. */
function announcesBody(raw: IncomingMessage): boolean {
  return raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
}

/**
 * A request body that sends nothing for `idleMs` (BODY_IDLE_TIMEOUT_SECONDS), or is not complete
 * `totalMs` (BODY_TIMEOUT_SECONDS) after its request began (a client dripping a byte now and then),
 * is answered 408 with the catalog's message and its connection closed. Closing is what releases everything the body
 * held: its readers (the JSON parser, an upload's temporary file) see the request aborted, the
 * same path as a client that goes away. A body is idle only when the socket brought no byte and
 * nothing read is waiting for us: a slow reader on our side (a disk write, a database call before
 * the body is read) never counts against the client. Once the body is complete, nothing is timed:
 * a slow answer is not a slow body.
 */
export const bodyTimeoutPlugin = fp<{ idleMs: number; totalMs: number }>(
  async (app, { idleMs, totalMs }) => {
    if (!(idleMs > 0) || !(totalMs > 0)) throw new Error(`body timeouts must be above 0 ms, got ${idleMs} and ${totalMs}`);
    app.addHook('onRequest', (request, reply, done) => {
      const raw = request.raw;
      const socket = raw.socket;
      // An injected request (light-my-request) has no socket to time or to answer on.
      if (!(socket instanceof Socket) || raw.complete || !announcesBody(raw)) return done();
      let lastBytes = socket.bytesRead;
      const began = Date.now();
      let lastProgress = began;
      const timer = setInterval(() => {
        if (raw.complete || raw.destroyed || socket.destroyed) return stop();
        const now = Date.now();
        const tooLong = now - began >= totalMs;
        if (!tooLong && (socket.bytesRead !== lastBytes || raw.readableLength > 0)) {
          lastBytes = socket.bytesRead;
          lastProgress = now;
          return;
        }
        if (!tooLong && now - lastProgress < idleMs) return;
        stop();
        request.log.info({ idleMs, totalMs, bytesRead: socket.bytesRead, tooLong }, 'request body timed out');
        // An answer already begun (an early refusal whose body Node is reading to its end) only closes.
        if (reply.raw.headersSent) return void socket.destroy();
        endWithAnswer(socket, tooLong ? errors.bodyTooSlow(totalMs / 1000) : errors.bodyTimeout(idleMs / 1000));
      }, Math.max(10, Math.floor(Math.min(idleMs, totalMs) / CHECKS_PER_PERIOD)));
      timer.unref();
      // Not stopped by the answer: a body Node reads to its end after an early answer is timed too.
      const stop = () => {
        clearInterval(timer);
        raw.off('end', stop).off('close', stop);
      };
      raw.once('end', stop).once('close', stop);
      done();
    });
  },
  { name: 'canmap-body-timeout' },
);
