import type { FastifyInstance } from 'fastify';
import { ReleaseUnavailableError } from '../../../releases/unavailable.ts';
import { errors } from '../../errors.ts';
import { GeocodeQueryError, type Geocoder } from '../../../engines/geocoding/types.ts';
import { GEOCODING_KIND } from '../../../schemas/geocoding-release.ts';

/**
 * Runs fn against the enabled geocoding release (held open for the call). No servable release:
 * volume 1's `geocode temporarily unavailable` 503 (service_unavailable, retryable, Retry-After: 5).
 * A GeocodeQueryError of the engine is the 400 it words.
 */
export async function useGeocoder<T>(app: FastifyInstance, fn: (geocoder: Geocoder) => T): Promise<T> {
  try {
    return await app.releases.use<Geocoder, T>(GEOCODING_KIND, async (geocoder) => fn(geocoder));
  } catch (err) {
    if (err instanceof GeocodeQueryError) throw errors.badRequest(err.message);
    if (err instanceof ReleaseUnavailableError && err.kind === GEOCODING_KIND) throw errors.serviceUnavailable('geocode');
    throw err;
  }
}
