import { createRequire } from 'node:module';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { mcpHostCheck } from '../../mcp/allowed-hosts.ts';
import { createCallGate, takeRateLimitSlot } from '../../mcp/call-gate.ts';
import { createMcpServer, toolCallAnswer } from '../../mcp/server.ts';
import { singleToolCall } from '../../mcp/single-tool-call.ts';

const { version } = createRequire(import.meta.url)('../../../package.json') as { version: string };

/** The JSON-RPC methods that stand for endpoint calls: the gate takes their rate-limit slots per call. */
const CALLS = new Set(['tools/call', 'resources/read']);

function isCallMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && CALLS.has((message as { method?: unknown }).method as string);
}

/** A refusal of the transport in its own shape (a JSON-RPC error without an id), as the SDK's transport words its own. */
function jsonRpcError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** Stateless Streamable HTTP offers no stream and holds no session: GET and DELETE are 405, as the transport defines. */
const methodNotAllowed = (reply: FastifyReply) =>
  jsonRpcError(reply.header('allow', 'POST'), 405, 'Method not allowed: this server is stateless; POST JSON-RPC messages to /mcp');

function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://${request.host}${request.url}`, { method: request.method, headers });
}

/** Any other POST (initialize, lists, notifications, batches, malformed messages): the SDK's stateless transport answers it. */
async function answerWithSdk(server: Server, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const answer = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
    reply.code(answer.status);
    answer.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    return reply.send(answer.body === null ? '' : await answer.text());
  } finally {
    await server.close();
  }
}

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (no session, JSON
 * answers), so any API process of any host answers any message. The key is checked at the door
 * as on every path; the protocol's own messages take one rate-limit slot per request and are
 * never metered; each tool call passes the gate of the endpoint it stands for (api/mcp/call-gate.ts).
 */
const plugin: FastifyPluginAsync = async (app) => {
  const hostAllowed = mcpHostCheck(app.config.mcpAllowedHosts, app.config.baseUrl);
  const config = { perCallAccess: true };

  app.post('/mcp', { config, schema: { hide: true } }, async (request, reply) => {
    if (!hostAllowed(request.headers.host)) return jsonRpcError(reply, 403, `Invalid Host header: ${String(request.headers.host).slice(0, 200)}`);
    const { body } = request;
    const calls = Array.isArray(body) ? body.every(isCallMessage) : isCallMessage(body);
    if (!calls) await takeRateLimitSlot(app, request);
    const context = { app, request, reply, gate: createCallGate(app, request) };
    const call = singleToolCall(request.body, request.headers);
    // The usual message, one tool call, answered as the transport would answer it without its per-request setup.
    if (call !== null) return reply.type('application/json').send(await toolCallAnswer(call, context));
    return answerWithSdk(createMcpServer(version, context), request, reply);
  });
  app.get('/mcp', { config, schema: { hide: true } }, (_request, reply) => methodNotAllowed(reply));
  app.delete('/mcp', { config, schema: { hide: true } }, (_request, reply) => methodNotAllowed(reply));
};

export const mcpRoutes = fp(plugin, { name: 'canmap-mcp', dependencies: ['canmap-routing'] });
