import type { FastifyInstance } from 'fastify';
import type { TransitData } from '../../../engines/transit/data.ts';
import { TRANSIT_KIND } from '../../../engines/transit/release.ts';

/**
 * Runs fn against the enabled transit release (held open for the call). With no valid transit
 * release enabled the store throws the 503 `transit data temporarily unavailable`, retryable.
 */
export function useTransit<T>(app: FastifyInstance, fn: (data: TransitData) => T | Promise<T>): Promise<T> {
  return app.releases.use<TransitData, T>(TRANSIT_KIND, async (data) => fn(data));
}
