import { isIP } from 'node:net';

const LOOPBACK_NAME = 'localhost';

export type HostCheck = (hostHeader: string | undefined) => boolean;

function hostnameOf(host: string): string {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/**
 * Whether POST /mcp answers a request with this Host header (DNS-rebinding protection: a page
 * that rebinds its own name to this server still sends that name). What no rebinding page can
 * send always passes: an IP address, and `localhost`. Otherwise the host name must be BASE_URL's,
 * or one of MCP_ALLOWED_HOSTS. Host names only, so a port picked at start (PORT=0) or mapped by a
 * proxy still passes.
 */
export function mcpHostCheck(setting: string, baseUrl: string): HostCheck {
  const listed = setting.split(',').map((h) => hostnameOf(h.trim())).filter((h) => h !== '');
  const allowed = new Set([new URL(baseUrl).hostname.toLowerCase(), LOOPBACK_NAME, ...listed]);
  const seen = new Map<string, boolean>();
  return (hostHeader) => {
    if (hostHeader === undefined) return false;
    let verdict = seen.get(hostHeader);
    if (verdict === undefined) {
      const name = hostnameOf(hostHeader);
      verdict = allowed.has(name) || isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0;
      // A few names reach a server; a client sending a new Host each time only stops being remembered.
      if (seen.size < 1000) seen.set(hostHeader, verdict);
    }
    return verdict;
  };
}
