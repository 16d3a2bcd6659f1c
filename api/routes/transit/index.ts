import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { agenciesRoute } from './agencies.ts';
import { departuresRoute } from './departures.ts';
import { transitRouteRoute } from './route.ts';
import { stopRoute } from './stop.ts';
import { stopsNearbyRoute } from './stops-nearby.ts';

/** The static transit endpoints of volume 2, served from the enabled 'transit' release. */
export const transitRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(agenciesRoute);
  await app.register(stopsNearbyRoute);
  await app.register(stopRoute);
  await app.register(departuresRoute);
  await app.register(transitRouteRoute);
};
