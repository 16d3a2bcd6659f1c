import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { refuse } from './refusal.ts';

export interface DownloadResult {
  bytes: number;
  etag: string | null;
  /** Last-Modified as ISO 8601, or null when absent or unparseable. */
  lastModified: string | null;
}

/** Raised inside the byte counter so the pipeline stops as soon as the cap is passed. */
class OversizeError extends Error {}

/**
 * Streams an http(s) URL to a file. The timeout covers the whole transfer (headers and body).
 * Other 4xx answers and downloads over the size cap are refusals (retrying cannot help); 5xx,
 * 408, 429, timeouts and connection errors are thrown as ordinary Errors so the job is retried.
 */
export async function downloadToFile(url: string, file: string, opts: { fetchTimeoutMs: number; maxDownloadBytes: number }): Promise<DownloadResult> {
  const signal = AbortSignal.timeout(opts.fetchTimeoutMs);
  const timedOut = () => new Error(`download of ${url} timed out after ${opts.fetchTimeoutMs} ms`);
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
  } catch (err) {
    if (signal.aborted) throw timedOut();
    throw new Error(`download of ${url} failed: ${describeFetchError(err)}`);
  }
  const transient = transientStatus(response.status);
  if (transient) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`download of ${url} failed: HTTP ${response.status} (${transient}, will retry)`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    refuse(`download of ${url} failed: HTTP ${response.status} ${response.statusText}`.trim());
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > opts.maxDownloadBytes) {
    await response.body?.cancel().catch(() => {});
    refuse(`download of ${url} is ${declared} bytes, over the ${opts.maxDownloadBytes}-byte limit`);
  }
  if (!response.body) refuse(`download of ${url} has no body`);

  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > opts.maxDownloadBytes) done(new OversizeError());
      else done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), counter, createWriteStream(file));
  } catch (err) {
    if (err instanceof OversizeError) refuse(`download of ${url} exceeds the ${opts.maxDownloadBytes}-byte limit`);
    if (signal.aborted) throw timedOut();
    throw new Error(`download of ${url} failed while reading the body: ${describeFetchError(err)}`);
  }
  return { bytes, etag: response.headers.get('etag'), lastModified: toIsoDate(response.headers.get('last-modified')) };
}

/** Why an HTTP status is worth retrying later, or null when it is not. */
function transientStatus(status: number): string | null {
  if (status >= 500) return 'server error';
  if (status === 408) return 'request timeout';
  if (status === 429) return 'too many requests';
  return null;
}

function toIsoDate(httpDate: string | null): string | null {
  if (!httpDate) return null;
  const time = Date.parse(httpDate);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function describeFetchError(err: unknown): string {
  const error = err as Error & { cause?: { code?: string; message?: string } };
  const cause = error.cause ? ` (${error.cause.code ?? error.cause.message ?? ''})` : '';
  return `${error.message}${cause}`;
}
