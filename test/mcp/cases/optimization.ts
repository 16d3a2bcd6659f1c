import { DEMO_OPTIMIZATION } from '../../../bin/demo/examples.ts';
import type { McpCase } from './case.ts';

export const optimizationCases: McpCase[] = [
  {
    name: 'optimize_fleet: the demo\'s three deliveries by one van',
    tool: 'optimize_fleet',
    args: DEMO_OPTIMIZATION,
    http: { method: 'POST', url: '/optimize', body: DEMO_OPTIMIZATION },
  },
  {
    name: 'optimize_fleet: VALIDATE_ONLY answers {} without solving',
    tool: 'optimize_fleet',
    args: { ...DEMO_OPTIMIZATION, solvingMode: 'VALIDATE_ONLY' },
    http: { method: 'POST', url: '/optimize', body: { ...DEMO_OPTIMIZATION, solvingMode: 'VALIDATE_ONLY' } },
  },
  {
    name: 'optimize_fleet: a costPerHour that is not a number is the same 400 in the format\'s shape',
    tool: 'optimize_fleet',
    args: { model: { shipments: DEMO_OPTIMIZATION.model.shipments, vehicles: [{ label: 'van', costPerHour: 'cheap' }] } },
    http: { method: 'POST', url: '/optimize', body: { model: { shipments: DEMO_OPTIMIZATION.model.shipments, vehicles: [{ label: 'van', costPerHour: 'cheap' }] } } },
    refused: 400,
  },
];
