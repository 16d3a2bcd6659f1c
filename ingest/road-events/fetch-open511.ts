import { fetchJson, type DocumentCheck, type HttpOptions } from './http-json.ts';
import { REASONS, UpstreamError } from './upstream-error.ts';
import { redactUrl } from '../../lib/redact-url.ts';

export const OPEN511_PAGE_SIZE = 500;
export const MAX_PAGES = 200;

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

/** An Open511 events document has an "events" array; anything else (a maintenance notice, ...) is retried. */
export const checkEventsDocument: DocumentCheck = (doc, url) => {
  if (!doc || typeof doc !== 'object' || !Array.isArray((doc as { events?: unknown }).events)) {
    throw new UpstreamError({ reason: REASONS.notOpen511, detail: `${redactUrl(url)}: answer is not an Open511 events document (no "events" array)`, retryable: true, url });
  }
};

function eventsOf(doc: unknown): { events: unknown[]; next: string | null } {
  const d = doc as { events: unknown[]; pagination?: { next_url?: unknown } };
  const next = typeof d.pagination?.next_url === 'string' && d.pagination.next_url.trim() ? d.pagination.next_url.trim() : null;
  return { events: d.events, next };
}

/**
 * Every event of an Open511 events API, following pagination: `pagination.next_url` when given
 * (relative to the page; the page without one is the last), else limit/offset, the offset moved
 * by what each page held (servers cap page sizes below the limit asked for) until a page comes
 * back empty. Either way a page of ids already seen (a server ignoring offset) or a URL already
 * fetched ends it. A page failing, or pages still pending after 200, fails the whole fetch: a
 * partial list is never returned (the events missing from it would be deleted as removed).
 */
export async function fetchOpen511Events(
  baseUrl: string,
  http: HttpOptions,
  pageSize = OPEN511_PAGE_SIZE,
): Promise<{ events: unknown[]; /** Pages that held new events (the closing empty or repeated page is not counted). */ pages: number }> {
  const all: unknown[] = [];
  const seenIds = new Set<unknown>();
  const fetched = new Set<string>();
  let url: URL | null = firstPageUrl(baseUrl, pageSize);
  let pages = 0;
  let linked = false;
  while (url) {
    const href = url.toString();
    if (fetched.has(href)) break;
    if (fetched.size >= MAX_PAGES) {
      const detail = `more than ${MAX_PAGES} pages (${all.length} events so far, next ${redactUrl(href)}); refusing a partial list`;
      throw new UpstreamError({ reason: REASONS.tooManyPages, detail, retryable: false, url: href });
    }
    fetched.add(href);
    const { events, next } = eventsOf(await fetchJson(href, http, checkEventsDocument));
    const ids = events.map((e) => (e && typeof e === 'object' ? (e as { id?: unknown }).id : undefined)).filter((id) => id !== undefined);
    // Events without an id (invalid, dropped later) say nothing about whether the page repeats.
    const repeated = ids.length > 0 && ids.every((id) => seenIds.has(id));
    if (events.length === 0 || repeated) break;
    pages++;
    for (const id of ids) seenIds.add(id);
    all.push(...events);
    if (next) {
      linked = true;
      url = new URL(next, href);
      continue;
    }
    if (linked) break; // a server that links its pages omits next_url on the last one
    const offset = Number(url.searchParams.get('offset') ?? 0);
    url = new URL(href);
    url.searchParams.set('offset', String(offset + events.length));
  }
  return { events: all, pages };
}
