import { httpReason, networkReason, REASONS, UpstreamError } from './upstream-error.ts';
import { redactUrl } from '../../lib/redact-url.ts';

/**
 * GET a JSON document from a publisher's API: a timeout per request, retries with exponential
 * backoff for network faults, timeouts, 5xx, unreadable JSON and JSON of the wrong shape, and 429
 * honoured: wait out Retry-After when it is short, else give up and say until when (the poller
 * records it). An answer larger than maxBytes is refused while it streams.
 */
export interface HttpOptions {
  timeoutMs: number;
  /** Tries per request (1 = no retry). */
  attempts: number;
  /** First retry delay; doubles each try. */
  backoffMs: number;
  /** Longest Retry-After waited for inside one poll. */
  maxRetryAfterMs: number;
  /** Largest answer read (ROAD_EVENTS_MAX_RESPONSE_BYTES); a larger one is cut off and refused. */
  maxBytes: number;
  signal?: AbortSignal;
  /** For logs: one line per retry. */
  onRetry?: (line: string) => void;
}

export const DEFAULT_HTTP: Omit<HttpOptions, 'timeoutMs'> = {
  attempts: 3,
  backoffMs: 1000,
  maxRetryAfterMs: 30_000,
  maxBytes: 20 * 1024 * 1024,
};

/** The HTTP options of the configured polls (ROAD_EVENTS_TIMEOUT_SECONDS, ROAD_EVENTS_MAX_RESPONSE_BYTES). */
export function configuredHttp(config: { roadEventsTimeoutMs: number; roadEventsMaxResponseBytes: number }, signal?: AbortSignal): HttpOptions {
  return { ...DEFAULT_HTTP, timeoutMs: config.roadEventsTimeoutMs, maxBytes: config.roadEventsMaxResponseBytes, ...(signal ? { signal } : {}) };
}

/** Retry-After as seconds or an HTTP date, in ms from now; null if absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function tooLarge(url: string, maxBytes: number, seen: string): UpstreamError {
  return new UpstreamError({ reason: REASONS.tooLarge, detail: `answer larger than ${maxBytes} bytes (${seen}) from ${redactUrl(url)}; refused`, retryable: false, url });
}

/** The body, refused (and the request aborted) as soon as it is known to exceed maxBytes. */
async function readCapped(response: Response, url: string, maxBytes: number, abort: AbortController): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    abort.abort();
    throw tooLarge(url, maxBytes, `Content-Length ${declared}`);
  }
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      abort.abort();
      await reader.cancel().catch(() => {});
      throw tooLarge(url, maxBytes, `${total} bytes read`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Throws an UpstreamError when the document is not what the caller expects (retried when retryable). */
export type DocumentCheck = (doc: unknown, url: string) => void;

async function attempt(url: string, options: HttpOptions, check?: DocumentCheck): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const cutOff = new AbortController();
  const signal = AbortSignal.any([timeout, cutOff.signal, ...(options.signal ? [options.signal] : [])]);
  const shown = redactUrl(url);
  try {
    const response = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'follow' });
    if (response.status === 429) {
      await response.body?.cancel().catch(() => {});
      const wait = retryAfterMs(response.headers.get('retry-after'));
      throw new UpstreamError({ reason: httpReason(429), detail: 'HTTP 429 Too Many Requests', retryable: true, retryAfterMs: wait, url });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      const detail = `HTTP ${response.status} ${response.statusText}`.trim();
      throw new UpstreamError({ reason: httpReason(response.status), detail, retryable: response.status >= 500, url });
    }
    const body = await readCapped(response, url, options.maxBytes, cutOff);
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      const detail = `response is not JSON (${body.length} bytes starting ${JSON.stringify(body.slice(0, 40))}) from ${shown}`;
      throw new UpstreamError({ reason: REASONS.notJson, detail, retryable: true, url });
    }
    check?.(doc, url);
    return doc;
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
    if (timeout.aborted) throw new UpstreamError({ reason: REASONS.timedOut, detail: `no complete answer within ${options.timeoutMs} ms`, retryable: true, url });
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const detail = `request failed: ${cause?.code ?? cause?.message ?? (err as Error).message}`;
    throw new UpstreamError({ reason: networkReason(cause?.code), detail, retryable: true, url });
  }
}

export async function fetchJson(url: string, options: HttpOptions, check?: DocumentCheck): Promise<unknown> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(url, options, check);
    } catch (err) {
      if (!(err instanceof UpstreamError) || !err.retryable || n >= options.attempts) throw err;
      let delay = options.backoffMs * 2 ** (n - 1);
      if (err.retryAfterMs !== null) {
        if (err.retryAfterMs > options.maxRetryAfterMs) throw err;
        delay = Math.max(delay, err.retryAfterMs);
      }
      options.onRetry?.(`${redactUrl(url)}: ${err.message}; retry ${n} of ${options.attempts - 1} in ${delay} ms`);
      await sleep(delay, options.signal);
    }
  }
}
