import type { FastifyReply, FastifyRequest } from 'fastify';
import { BILLABLE_QUERIES_HEADER, BILLABLE_SHIPMENTS_HEADER, pathOf } from '../../engines/access/metering.ts';
import { errors, type Refusal } from '../../lib/errors.ts';
import { replyWithError, sendRefusal } from '../reply-error.ts';
import type { CallMeter } from './call-meter.ts';
import '../fastify-types.ts';

export type OnSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => void;

/**
 * The onSend hook that meters an answer just before it leaves: the answer is released once its
 * event is in the journal (written with the rest of the event-loop turn's). When the journal
 * cannot be written, the answer is replaced by 503 service_unavailable and nothing is counted.
 */
export function createMeterHook(meter: CallMeter): OnSend {
  return (request, reply, payload, done) => {
    const key = request.apiKey;
    if (key === null) return done(null, payload);
    meter.record({
      key,
      headers: request.headers,
      method: request.method,
      path: pathOf(request.url),
      statusCode: reply.statusCode,
      billableQueries: reply.getHeader(BILLABLE_QUERIES_HEADER) as string | number | string[] | undefined,
      billableShipments: reply.getHeader(BILLABLE_SHIPMENTS_HEADER) as string | number | string[] | undefined,
      premium: request.premium,
    }, (err) => {
      if (!err) return done(null, payload);
      request.log.warn({ err }, 'answered 503: usage could not be recorded');
      const unavailable = errors.serviceUnavailable('usage metering');
      const stream = payload as { destroy?: () => void } | null;
      if (stream && typeof stream.destroy === 'function') stream.destroy();
      for (const name of Object.keys(reply.getHeaders())) {
        if (!name.startsWith('access-control-') && name !== 'vary') reply.removeHeader(name);
      }
      reply.code(unavailable.statusCode).headers(unavailable.headers).type('application/json; charset=utf-8');
      done(null, JSON.stringify(unavailable.body()));
    });
  };
}

/**
 * For answers sent outside the route hooks (paths Fastify cannot route, answered from
 * `frameworkErrors`): meters them through the same hook, then sends `answer` — or the 503 the
 * hook put in its place.
 */
export function sendMetered(hook: OnSend | undefined, request: FastifyRequest, reply: FastifyReply, answer: Refusal): void {
  if (hook === undefined) {
    sendRefusal(reply, answer);
    return;
  }
  reply.code(answer.statusCode);
  hook(request, reply, null, (err, payload) => {
    if (err) replyWithError(err, request, reply);
    else if (typeof payload === 'string') reply.send(payload);
    else sendRefusal(reply, answer);
  });
}
