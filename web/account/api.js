// The dashboard's calls to its own origin. The session cookie (HttpOnly, Path=/account) rides
// along by itself; relative URLs resolve against /account/.

/** GET `path` as JSON: {status, body}; body null when the answer is not JSON. Never rejects on HTTP errors. */
export async function getJson(path) {
  const res = await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

export const fetchMe = () => getJson('me');
export const fetchUsage = (month) => getJson(`usage?${new URLSearchParams({ month })}`);

export async function signOut() {
  await fetch('logout', { method: 'POST', credentials: 'same-origin' });
}

/** The login token of what was pasted: a whole login link, or the token alone. */
export function tokenOf(input) {
  const text = input.trim();
  try {
    return new URL(text).searchParams.get('token') ?? text;
  } catch {
    return text;
  }
}
