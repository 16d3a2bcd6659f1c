import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema,
  ErrorCode, McpError, type CallToolResult, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Refusal } from '../../lib/errors.ts';
import { readResource, RESOURCES } from './resources.ts';
import { refusalJson, refusalOf } from './tool-errors.ts';
import type { MalformedToolCall, SingleToolCall } from './single-tool-call.ts';
import type { McpTool, ToolAnswer, ToolContext } from './tool.ts';
import { TOOLS } from './tools/index.ts';

const INSTRUCTIONS = 'canmap answers questions about places in Canada from open data: geocoding (addresses, places, ' +
  'Dominion Land Survey descriptions, well ids, parcel ids), public transit schedules, road incidents and closures, ' +
  'map catalog layers, routing, travel-time areas and matrices, fleet optimization, elevation and map styles. ' +
  'Coordinates are WGS84 longitude then latitude unless a tool says otherwise. Each tool call is one call of the ' +
  'matching HTTP endpoint on the same API key: it is metered and rate-limited the same way.';

/** One JSON Schema validator for every request's server (the SDK would build an Ajv per server: most of a call's cost). */
const validator = new AjvJsonSchemaValidator();

const byName = new Map<string, McpTool>(TOOLS.map((tool) => [tool.name, tool]));

/** tools/list's answer, made once: it is the same for every caller. */
const TOOL_LIST: Tool[] = TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema as Tool['inputSchema'],
  outputSchema: tool.outputSchema as Tool['outputSchema'],
  annotations: { title: tool.title, ...tool.annotations },
}));

/** A refusal as a tool error: its JSON (refusalJson), flagged isError. */
function toolError(refusal: Refusal): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(refusalJson(refusal)) }] };
}

/** The tool's answer, or the refusal it met as a tool error; an unknown tool is a protocol error (McpError). */
async function runTool(name: string, args: Record<string, unknown> | undefined, context: ToolContext): Promise<ToolAnswer | CallToolResult> {
  const tool = byName.get(name);
  // A protocol error, not a tool error (the SDK's McpServer answers the same): the client asked for nothing we list.
  if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Tool ${JSON.stringify(name.slice(0, 100))} not found: tools/list names the tools`);
  try {
    return await tool.run(args ?? {}, context);
  } catch (err) {
    return toolError(refusalOf(err, context.request.log));
  }
}

const isAnswer = (outcome: ToolAnswer | CallToolResult): outcome is ToolAnswer => typeof outcome.text === 'string';

export async function callTool(name: string, args: Record<string, unknown> | undefined, context: ToolContext): Promise<CallToolResult> {
  const outcome = await runTool(name, args, context);
  return isAnswer(outcome) ? { content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.structured } : outcome;
}

/** callTool's result as JSON text, made from the answer's JSON text without parsing it. */
async function callToolJson(name: string, args: Record<string, unknown> | undefined, context: ToolContext): Promise<string> {
  const outcome = await runTool(name, args, context);
  if (!isAnswer(outcome)) return JSON.stringify(outcome);
  const structured = outcome.structuredJson ?? JSON.stringify(outcome.structured);
  return `{"content":[{"type":"text","text":${JSON.stringify(outcome.text)}}],"structuredContent":${structured}}`;
}

/**
 * The JSON-RPC response to one tools/call, as the SDK's server and transport word it: the result,
 * or the protocol error (an unknown tool) with its code and message.
 */
export async function toolCallAnswer(call: SingleToolCall | MalformedToolCall, context: ToolContext): Promise<string> {
  if ('invalid' in call) return JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${call.invalid}` } });
  try {
    return `{"result":${await callToolJson(call.name, call.args, context)},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
  } catch (err) {
    if (!(err instanceof McpError)) throw err;
    return JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) } });
  }
}

/**
 * The MCP server of one POST /mcp request (stateless: any API process answers any request).
 * Tools stand for endpoints (tools/); resources for the few lists a client keeps at hand.
 */
export function createMcpServer(version: string, context: ToolContext): Server {
  const server = new Server({ name: 'canmap', title: 'canmap: open mapping data for Canada', version }, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params.name, request.params.arguments, context));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(request.params.uri, context));
  return server;
}
