import type { McpCase } from './case.ts';

export const optimizationCases: McpCase[] = [];
