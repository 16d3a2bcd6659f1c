/**
 * The routing backend a deployment chose (ROUTING_BACKEND): null for the built-in engine over
 * the enabled roads release, or the client of the Valhalla server at VALHALLA_URL. Handlers check
 * their parameters first, then answer through Valhalla when there is a client, so every 400 is
 * ours and Valhalla only ever sees valid requests.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { valhallaClient, type ValhallaClient } from '../../engines/valhalla/client.ts';
import { ValhallaFailure } from '../../engines/valhalla/failure.ts';
import type { Config } from '../../lib/config.ts';
import { Refusal, errors } from '../../lib/errors.ts';

const clients = new WeakMap<Config, ValhallaClient>();

/** The Valhalla client when the deployment routes through Valhalla (one per configuration), else null. */
export function routingBackend(app: FastifyInstance): ValhallaClient | null {
  const config = app.config;
  if (config.routingBackend !== 'valhalla') return null;
  let client = clients.get(config);
  if (!client) {
    client = valhallaClient({ url: config.valhallaUrl, timeoutMs: config.valhallaTimeoutMs });
    clients.set(config, client);
  }
  return client;
}

/** Our answer to a failed Valhalla call: 422 no route, the endpoint's 502, or 503 with Retry-After 5 (volume 1 variant 1). */
export function valhallaAnswer(failure: ValhallaFailure, failed: () => Refusal, noRoute: () => Refusal = errors.noRoute): Refusal {
  if (failure.kind === 'no_route') return noRoute();
  if (failure.kind === 'unavailable') return errors.serviceUnavailable('routing');
  return failed();
}

/**
 * Runs work against Valhalla. Its failures become our answers (`failed` is the endpoint's 502,
 * `noRoute` its "no answer" status: 422, or 502 for /isochrone); anything else thrown that is not
 * already an answer is logged and becomes `failed()`: never a 500.
 */
export async function throughValhalla<T>(
  request: FastifyRequest, failed: () => Refusal, work: () => Promise<T>, noRoute: () => Refusal = errors.noRoute,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Refusal) throw err;
    if (err instanceof ValhallaFailure) {
      request.log.warn({ err, valhalla: err.detail }, `routing through valhalla: ${err.kind}`);
      throw valhallaAnswer(err, failed, noRoute);
    }
    request.log.error({ err }, 'routing through valhalla failed');
    throw failed();
  }
}
