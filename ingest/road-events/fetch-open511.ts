import { fetchJson, UpstreamError, type HttpOptions } from './http-json.ts';

export const OPEN511_PAGE_SIZE = 500;
const MAX_PAGES = 200;

/**
 * The first page's URL: the configured base with format=json, status=ACTIVE and limit added
 * unless it already sets them. ACTIVE covers ongoing and planned events (Open511), and no
 * in_effect_on filter is sent, so events that start later are included.
 */
export function firstPageUrl(baseUrl: string, pageSize = OPEN511_PAGE_SIZE): URL {
  const url = new URL(baseUrl);
  if (!url.searchParams.has('format')) url.searchParams.set('format', 'json');
  if (!url.searchParams.has('status')) url.searchParams.set('status', 'ACTIVE');
  if (!url.searchParams.has('limit')) url.searchParams.set('limit', String(pageSize));
  return url;
}

function eventsOf(doc: unknown, url: string): { events: unknown[]; next: string | null } {
  if (!doc || typeof doc !== 'object' || !Array.isArray((doc as { events?: unknown }).events)) {
    throw new UpstreamError(`${url}: answer is not an Open511 events document (no "events" array)`, true);
  }
  const d = doc as { events: unknown[]; pagination?: { next_url?: unknown } };
  const next = typeof d.pagination?.next_url === 'string' && d.pagination.next_url.trim() ? d.pagination.next_url.trim() : null;
  return { events: d.events, next };
}

/**
 * Every event of an Open511 events API, following pagination: `pagination.next_url` when given
 * (relative to the page), else (for servers that never send it) limit/offset while pages come
 * back full. Stops at an empty page, a page of ids already seen (a server ignoring offset), a
 * URL already fetched, or 200 pages.
 * Any page failing fails the whole fetch: a partial list is never returned.
 */
export async function fetchOpen511Events(baseUrl: string, http: HttpOptions, pageSize = OPEN511_PAGE_SIZE): Promise<{ events: unknown[]; pages: number }> {
  const all: unknown[] = [];
  const seenIds = new Set<unknown>();
  const fetched = new Set<string>();
  let url: URL | null = firstPageUrl(baseUrl, pageSize);
  let pages = 0;
  let linked = false;
  while (url && pages < MAX_PAGES) {
    const href = url.toString();
    if (fetched.has(href)) break;
    fetched.add(href);
    const { events, next } = eventsOf(await fetchJson(href, http), href);
    pages++;
    const ids = events.map((e) => (e && typeof e === 'object' ? (e as { id?: unknown }).id : undefined));
    const news = ids.filter((id) => id === undefined || !seenIds.has(id)).length;
    if (events.length === 0 || news === 0) break;
    for (const id of ids) seenIds.add(id);
    all.push(...events);
    if (next) {
      linked = true;
      url = new URL(next, href);
      continue;
    }
    if (linked) break; // a server that links its pages omits next_url on the last one
    const limit = Number(url.searchParams.get('limit') ?? pageSize);
    if (events.length < limit) break;
    const offset = Number(url.searchParams.get('offset') ?? 0);
    url = new URL(href);
    url.searchParams.set('offset', String(offset + events.length));
  }
  return { events: all, pages };
}
