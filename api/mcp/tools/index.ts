import type { McpTool } from '../tool.ts';
import { aroundPointTool } from './around-point.ts';
import { catalogTools } from './catalog.ts';
import { feedbackTools } from './feedback.ts';
import { geocodingTools } from './geocoding.ts';
import { mapsTools } from './maps.ts';
import { optimizationTools } from './optimization.ts';
import { roadEventsTools } from './road-events.ts';
import { routingTools } from './routing.ts';
import { transitTools } from './transit.ts';

/** Every tool the agent interface lists: one per capability, by domain. */
export const TOOLS: McpTool[] = [
  ...geocodingTools,
  ...feedbackTools,
  ...transitTools,
  ...roadEventsTools,
  ...catalogTools,
  ...mapsTools,
  ...routingTools,
  ...optimizationTools,
  // Last: it runs the tools above, each part one call of its endpoint.
  aroundPointTool,
];
