import type { McpCase } from './case.ts';
import { catalogCases } from './catalog.ts';
import { feedbackCases } from './feedback.ts';
import { geocodingCases } from './geocoding.ts';
import { mapsCases } from './maps.ts';
import { optimizationCases } from './optimization.ts';
import { roadEventsCases } from './road-events.ts';
import { routingCases } from './routing.ts';
import { transitCases } from './transit.ts';

/** Every domain's cases (one file each under test/mcp/cases/). */
export const MCP_CASES: McpCase[] = [
  ...geocodingCases,
  ...feedbackCases,
  ...transitCases,
  ...roadEventsCases,
  ...catalogCases,
  ...mapsCases,
  ...routingCases,
  ...optimizationCases,
];
