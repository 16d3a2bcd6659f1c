import { isIP } from 'node:net';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

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
 * that rebinds its own name to this server still sends that name, so an IP address, which no
 * rebinding page can send, always passes). Host names only, so a port picked at start (PORT=0)
 * or mapped by a proxy still passes: MCP_ALLOWED_HOSTS when set, else BASE_URL's host name, and
 * for a loopback BASE_URL every loopback name.
 */
export function mcpHostCheck(setting: string, baseUrl: string): HostCheck {
  const listed = setting.split(',').map((h) => hostnameOf(h.trim())).filter((h) => h !== '');
  const base = new URL(baseUrl).hostname.toLowerCase();
  const allowed = new Set(listed.length > 0 ? listed : LOOPBACK.has(base) ? [...LOOPBACK] : [base]);
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
