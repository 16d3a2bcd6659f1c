import type { McpCase } from './case.ts';

export const routingCases: McpCase[] = [];
