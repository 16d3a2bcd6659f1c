import type { IncomingHttpHeaders } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

export interface SingleToolCall {
  id: string | number;
  name: string;
  args: Record<string, unknown> | undefined;
}

/** A lone tools/call request whose params are not a tool name and object arguments: JSON-RPC's invalid params (-32602). */
export interface MalformedToolCall {
  id: string | number;
  invalid: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(',') : value);

/**
 * The one tools/call request of a POST body that the SDK's transport would take as it is and hand
 * straight to the tools/call handler: a single well-formed JSON-RPC request (string or integer id,
 * a tool name, object arguments, nothing else in params but `_meta`), with the Accept and
 * protocol-version headers the transport requires. Anything else (initialize, lists, notifications,
 * batches, a malformed message, an unsupported version) is null: the SDK answers it, errors included.
 */
export function singleToolCall(body: unknown, headers: IncomingHttpHeaders): SingleToolCall | MalformedToolCall | null {
  const accept = header(headers.accept);
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
  const version = header(headers['mcp-protocol-version']);
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return null;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return null;
  if (Object.keys(body).length !== 4) return null;
  // The SDK would answer these -32603 with its schema library's report; they are the caller's params at fault.
  if (!isPlainObject(params)) return { id, invalid: 'params must be an object' };
  const { name, arguments: args, _meta: meta, ...rest } = params;
  if (typeof name !== 'string') return { id, invalid: 'params.name must be the name of a tool (a string)' };
  if (args !== undefined && !isPlainObject(args)) return { id, invalid: 'params.arguments must be an object' };
  if (meta !== undefined && !isPlainObject(meta)) return { id, invalid: 'params._meta must be an object' };
  if (Object.keys(rest).length > 0) return null;
  return { id, name, args };
}
