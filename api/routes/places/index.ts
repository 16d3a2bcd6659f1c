import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { placesNearbyRoute } from './nearby.ts';
import { placeRoute } from './place.ts';
import { placesSearchRoute } from './search.ts';

/** The places view of volume 2 over the points of interest of the enabled 'geocoding' release. */
export const placesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(placesSearchRoute);
  await app.register(placesNearbyRoute);
  await app.register(placeRoute);
};
