import type { ServiceDeps } from './deps.ts';
import { createAccountService, type AccountService } from './account/index.ts';
import { createCatalogService, type CatalogService } from './catalog/index.ts';
import { createFeedbackService, type FeedbackService } from './feedback/index.ts';
import { createGeocodingService, type GeocodingService } from './geocoding/index.ts';
import { createMapsService, type MapsService } from './maps/index.ts';
import { createOptimizationService, type OptimizationService } from './optimization/index.ts';
import { createByodService, type ByodService } from './byod/index.ts';
import { createRoadEventsService, type RoadEventsService } from './road-events/index.ts';
import { createRoutingService, type RoutingService } from './routing/index.ts';
import { createTransitService, type TransitService } from './transit/index.ts';

export type { ServiceDeps } from './deps.ts';

/**
 * One facade per capability. Each takes checked, typed requests and returns the answer or
 * throws a typed Refusal (lib/errors.ts); none knows of Fastify. The HTTP handlers under
 * api/routes/ call them, and so does every other front door.
 */
export interface Services {
  transit: TransitService;
  roadEvents: RoadEventsService;
  feedback: FeedbackService;
  geocoding: GeocodingService;
  account: AccountService;
  optimization: OptimizationService;
  catalog: CatalogService;
  routing: RoutingService;
  maps: MapsService;
  byod: ByodService;
}

export function buildServices(deps: ServiceDeps): Services {
  return {
    transit: createTransitService(deps),
    roadEvents: createRoadEventsService(deps),
    feedback: createFeedbackService(deps),
    geocoding: createGeocodingService(deps),
    account: createAccountService(deps),
    optimization: createOptimizationService(deps),
    catalog: createCatalogService(deps),
    routing: createRoutingService(deps),
    maps: createMapsService(deps),
    byod: createByodService(deps),
  };
}
