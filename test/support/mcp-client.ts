import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The SDK's own client on the SDK's Streamable HTTP transport, to `${api}/mcp` with a key in the Authorization header. */
export async function connectMcp(api: string, key: string | null, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'canmap-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${api}/mcp`), {
    requestInit: { headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers } },
  });
  await client.connect(transport);
  return client;
}

export interface ToolErrorBody {
  http_status: number;
  error: string;
  code?: string;
}

/** The JSON body a tool error carries (the HTTP answer's body, with its status). */
export function toolErrorOf(result: object): ToolErrorBody {
  const { isError, content } = result as { isError?: unknown; content?: unknown };
  if (isError !== true) throw new Error(`expected a tool error, got ${JSON.stringify(result).slice(0, 300)}`);
  const [first] = content as { type: string; text: string }[];
  return JSON.parse(first!.text) as ToolErrorBody;
}
