import type { TObject, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CallGate } from './call-gate.ts';

/** The MCP tool annotations (hints to the client; read-only tools change nothing anywhere). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a tool runs with: the app's facades and settings, the /mcp request it came in, and the gate every endpoint call passes. */
export interface ToolContext {
  app: FastifyInstance;
  /** The POST /mcp request (its key, headers and logger); its validators are the HTTP routes' own (tool-input.ts). */
  request: FastifyRequest;
  /** Its reply: answers are serialized by the HTTP route's response schema (reply.compileSerializationSchema). */
  reply: FastifyReply;
  gate: CallGate;
}

/** A tool's answer: the JSON text the HTTP endpoint would send, and the object clients read (structuredContent). */
export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
  /** structured as JSON text, when the answer was made as text (the usual tool call is answered without parsing it). */
  structuredJson?: string;
}

/** The answer for JSON text an endpoint made: structuredContent is that JSON (under `wrap` for an array), parsed only if asked for. */
export function jsonAnswer(text: string, wrap?: string): ToolAnswer {
  const structuredJson = wrap === undefined ? text : `{${JSON.stringify(wrap)}:${text}}`;
  let parsed: Record<string, unknown> | undefined;
  return {
    text,
    structuredJson,
    get structured() {
      return (parsed ??= JSON.parse(structuredJson) as Record<string, unknown>);
    },
  };
}

export interface McpTool {
  name: string;
  title: string;
  /** For a model choosing a tool: what it answers, units, coordinate order, limits, one example. */
  description: string;
  /** A JSON Schema object (TypeBox), derived from the schemas the HTTP route validates with. */
  inputSchema: TObject;
  outputSchema: TObject;
  annotations: ToolAnnotations;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolAnswer>;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A JSON object schema for an answer the HTTP endpoint sends as an array: the array under `key` (structuredContent must be an object). */
export type Wrapped = { key: string; schema: TSchema };
