import { asOptimizationError, Refusal } from '../../../lib/errors.ts';
import { OptimizationRequestBody, OptimizationResponse } from '../../../schemas/optimization-api.ts';
import { optimizeFleet } from '../../routes/optimization/optimize.ts';
import { endpointTool } from '../endpoint-tool.ts';
import type { McpTool } from '../tool.ts';
import { refusalOf } from '../tool-errors.ts';

const tool = endpointTool({
  name: 'optimize_fleet',
  title: 'Plan deliveries for a fleet of vehicles',
  description: 'Fleet optimization in the published route-optimization (OptimizeToursRequest) JSON format, camelCase or snake_case: '
    + 'model.shipments (each with pickups and/or deliveries: arrivalLocation {latitude, longitude}, duration like "180s", time windows) and '
    + 'model.vehicles (startLocation, endLocation, costPerHour, capacities...), globalStartTime/globalEndTime (RFC 3339), timeout (like "10s", '
    + 'clamped to the plan\'s longest solve). Assigns shipments to vehicles and times each route; travel by road (default), straight lines '
    + '(useGeodesicDistances) or own matrices; populatePolylines adds the road lines. solvingMode VALIDATE_ONLY answers {} or validationErrors '
    + 'and is free; a solve bills each performed shipment not billed in the last 24 hours. Errors come in the format\'s shape (status '
    + 'INVALID_ARGUMENT...). Example: {"model": {"shipments": [{"deliveries": [{"arrivalLocation": {"latitude": 49.2827, "longitude": '
    + '-123.1207}, "duration": "180s"}]}], "vehicles": [{"startLocation": {"latitude": 49.2856, "longitude": -123.1115}, "costPerHour": 30}]}}. '
    + 'One call of POST /optimize.',
  // It changes no data, but a second identical call is billed again (outside the 24-hour window) and takes a solve slot: not idempotent.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  method: 'POST',
  route: '/optimize',
  // No body schema for the gate: like the route (whose validator accepts every body), the checker reads the body as sent
  // (Ajv would coerce enums and numbers) and reports every problem, which VALIDATE_ONLY answers with a 200.
  readRaw: (args) => args,
  response: OptimizationResponse,
  answer: async (input, { app, request }) => {
    try {
      const { body, billableShipments } = await optimizeFleet(app, request.apiKey!, input.raw, { log: request.log });
      // The route sends JSON.stringify(body), not the schema's serialization: the same text.
      return { value: JSON.stringify(body), billableShipments };
    } catch (err) {
      // As api/reply-error.ts answers the route (config optimizationErrors): catalogued refusals in the format's shape, a fault of ours a plain 500.
      const refusal = refusalOf(err, request.log);
      throw err instanceof Refusal || refusal.statusCode !== 500 ? asOptimizationError(refusal) : refusal;
    }
  },
});

/** The tool publishes the route's documented body as its arguments. */
export const optimizationTools: McpTool[] = [{ ...tool, inputSchema: OptimizationRequestBody }];
