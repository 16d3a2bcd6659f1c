import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readRequestFreeText } from '../../params/geocoding/free-text.ts';
import { geocodeAutocompleteRoute } from './autocomplete.ts';
import { geocodeBatchRoute } from './batch.ts';
import { geocodeNearbyRoute } from './nearby.ts';
import { geocodeReverseRoute } from './reverse.ts';
import { geocodeSearchRoute } from './search.ts';
import { geocodeStructuredRoute } from './structured.ts';

/**
 * The geocoding endpoints of volume 2 (app.services.geocoding). The free text of a request is
 * read once, before the routes' own preHandlers (the premium-capability check among them).
 */
export const geocodingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.decorateRequest('freeText', null);
  app.addHook('preHandler', readRequestFreeText);
  await app.register(geocodeSearchRoute);
  await app.register(geocodeStructuredRoute);
  await app.register(geocodeAutocompleteRoute);
  await app.register(geocodeNearbyRoute);
  await app.register(geocodeReverseRoute);
  await app.register(geocodeBatchRoute);
};
