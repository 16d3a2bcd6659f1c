import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './account/index.ts';
import { apiDocsRoutes } from './api-docs/index.ts';
import { assetsRoutes } from './assets/index.ts';
import { basemapRoutes } from './basemap/index.ts';
import { byodRoutes } from './byod/index.ts';
import { catalogRoutes } from './catalog/index.ts';
import { elevationRoutes } from './elevation/index.ts';
import { feedbackRoutes } from './feedback/index.ts';
import { geocodingRoutes } from './geocoding/index.ts';
import { mapPageRoutes } from './map-page/index.ts';
import { mcpRoutes } from './mcp/index.ts';
import { optimizationRoutes } from './optimization/index.ts';
import { placesRoutes } from './places/index.ts';
import { roadEventsRoutes } from './road-events/index.ts';
import { routingRoutes } from './routing/index.ts';
import { stylesRoutes } from './styles/index.ts';
import { terrainRoutes } from './terrain/index.ts';
import { coverageRoute } from './transit/coverage.ts';
import { transitRoutes } from './transit/index.ts';

/**
 * Every domain's route plugin, registered by api/app.ts after auth, CORS and the OpenAPI
 * plugin. Add one import and one entry per domain folder (e.g. `./transit/index.ts`).
 */
export const routes: FastifyPluginAsync[] = [
  transitRoutes,
  coverageRoute,
  roadEventsRoutes,
  geocodingRoutes,
  placesRoutes,
  feedbackRoutes,
  accountRoutes,
  byodRoutes,
  catalogRoutes,
  stylesRoutes,
  basemapRoutes,
  terrainRoutes,
  elevationRoutes,
  mapPageRoutes,
  apiDocsRoutes,
  assetsRoutes,
  routingRoutes,
  optimizationRoutes,
  // Last: its tools call every capability above (and the routing plugin's decorations).
  mcpRoutes,
];
