import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { autocompleteRoute } from './autocomplete.ts';
import { batchRoute } from './batch.ts';
import { nearbyRoute } from './nearby.ts';
import { reverseRoute } from './reverse.ts';
import { searchRoute } from './search.ts';
import { structuredRoute } from './structured.ts';

/** The geocoding endpoints of volume 2, served from the enabled 'geocoding' release. */
export const geocodeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(searchRoute);
  await app.register(structuredRoute);
  await app.register(autocompleteRoute);
  await app.register(nearbyRoute);
  await app.register(reverseRoute);
  await app.register(batchRoute);
};
