/**
 * GET a JSON document from a publisher's API: a timeout per request, retries with exponential
 * backoff for network faults, timeouts, 5xx, unreadable JSON and JSON of the wrong shape, and 429
 * honoured: wait out Retry-After when it is short, else give up and say until when (the poller
 * records it).
 */
export interface HttpOptions {
  timeoutMs: number;
  /** Tries per request (1 = no retry). */
  attempts: number;
  /** First retry delay; doubles each try. */
  backoffMs: number;
  /** Longest Retry-After waited for inside one poll. */
  maxRetryAfterMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** For logs: one line per retry. */
  onRetry?: (line: string) => void;
}

export const DEFAULT_HTTP: Omit<HttpOptions, 'timeoutMs'> = {
  attempts: 3,
  backoffMs: 1000,
  maxRetryAfterMs: 30_000,
  maxBytes: 64 * 1024 * 1024,
};

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(message: string, readonly retryable: boolean, readonly retryAfterMs: number | null = null) {
    super(message);
  }
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

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new UpstreamError(`response larger than ${maxBytes} bytes`, false);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Throws an UpstreamError when the document is not what the caller expects (retried when retryable). */
export type DocumentCheck = (doc: unknown, url: string) => void;

async function attempt(url: string, options: HttpOptions, check?: DocumentCheck): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const response = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'follow' });
    if (response.status === 429) {
      await response.body?.cancel().catch(() => {});
      throw new UpstreamError('HTTP 429 Too Many Requests', true, retryAfterMs(response.headers.get('retry-after')));
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new UpstreamError(`HTTP ${response.status} ${response.statusText}`.trim(), response.status >= 500);
    }
    const body = await readCapped(response, options.maxBytes);
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      throw new UpstreamError(`response is not JSON (${body.length} bytes starting ${JSON.stringify(body.slice(0, 40))})`, true);
    }
    check?.(doc, url);
    return doc;
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
    if (timeout.aborted) throw new UpstreamError(`no complete answer within ${options.timeoutMs} ms`, true);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new UpstreamError(`request failed: ${cause?.code ?? cause?.message ?? (err as Error).message}`, true);
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
      options.onRetry?.(`${url}: ${err.message}; retry ${n} of ${options.attempts - 1} in ${delay} ms`);
      await sleep(delay, options.signal);
    }
  }
}
