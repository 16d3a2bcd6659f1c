import type { McpTool } from '../tool.ts';

/** The tool of this name in a domain's list (the composite and the resources run tools the lists define). */
export function toolNamed(tools: readonly McpTool[], name: string): McpTool {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool named ${name}`);
  return tool;
}
