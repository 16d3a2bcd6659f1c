/**
 * Dev origins (volume 1, Authentication rule 6): the hostname is localhost, 127.0.0.1, [::1],
 * or ends in .localhost, .pages.dev or .workers.dev — a hostname match, never a substring
 * (`localhost.example.com` and `pages.dev.example.com` are production origins).
 */
const DEV_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const DEV_SUFFIXES = ['.localhost', '.pages.dev', '.workers.dev'];

/** Whether an origin (`scheme://host[:port]`) is a dev origin; null (no Origin, no Referer) is not. */
export function isDevOrigin(origin: string | null): boolean {
  if (origin === null || !URL.canParse(origin)) return false;
  const host = new URL(origin).hostname.toLowerCase();
  return DEV_HOSTS.has(host) || DEV_SUFFIXES.some((suffix) => host.endsWith(suffix) && host.length > suffix.length);
}
