/**
 * The MCP client configuration for the local server, in the `mcpServers` shape that Claude
 * Desktop, Claude Code, Cursor and VS Code read (docs/mcp.md shows each client's file).
 */
export function mcpClientConfig(baseUrl: string, key: string): { mcpServers: Record<string, { type: 'http'; url: string; headers: Record<string, string> }> } {
  return { mcpServers: { canmap: { type: 'http', url: `${baseUrl}/mcp`, headers: { Authorization: `Bearer ${key}` } } } };
}
