import type { McpTool } from '../tool.ts';

export const routingTools: McpTool[] = [];
