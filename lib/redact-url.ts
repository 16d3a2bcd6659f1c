const SECRET_PARAM = /key|token|secret|sig|auth|pass|cred/i;

/**
 * The URL for messages and logs: its password and the values of query parameters whose names
 * look like credentials (a 511 API key sits in the query string) replaced by `***`.
 */
export function redactUrl(url: string | URL): string {
  const text = url.toString();
  if (!URL.canParse(text)) return '(unreadable URL)';
  const u = new URL(text);
  if (u.password) u.password = '***';
  for (const name of [...new Set(u.searchParams.keys())]) {
    if (SECRET_PARAM.test(name)) u.searchParams.set(name, '***');
  }
  return u.toString();
}
