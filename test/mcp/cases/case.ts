/**
 * One tool call and the HTTP request it stands for, on the demo's sample data: the runner
 * (test/mcp/tools-vs-http.ts) calls both and expects the tool's structuredContent to be the HTTP
 * answer's JSON (under `wrap` when the endpoint answers an array).
 */
export interface McpCase {
  /** Test title: what the call shows. */
  name: string;
  tool: string;
  args: Record<string, unknown>;
  http: { method: 'GET' | 'POST'; url: string; body?: unknown };
  /** Headers of both calls (e.g. a dev Origin for add-on data on the demo's dev plan). */
  headers?: Record<string, string>;
  wrap?: string;
  /** Fields that differ between two calls for a reason the case states (none by default). */
  normalize?: (answer: unknown) => unknown;
  /** The HTTP status of a success (default 200; POST /feedback answers 201). */
  status?: number;
  /** When the call must fail: the HTTP status, and the tool error carries the same body. */
  refused?: number;
}
