import type { McpTool } from '../tool.ts';

export const optimizationTools: McpTool[] = [];
