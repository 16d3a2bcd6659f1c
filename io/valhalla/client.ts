/**
 * The HTTP client of a Valhalla server: one JSON POST per call to `<VALHALLA_URL>/<action>`, the
 * whole exchange (connect, headers and body) bounded by VALHALLA_TIMEOUT_MS, every outcome other
 * than a 2xx JSON answer turned into a ValhallaFailure. Node's fetch (undici) keeps connections
 * alive between calls.
 */
import type { ValhallaClient } from '../../engines/valhalla/call.ts';
import { answerFailure, ValhallaFailure } from '../../engines/valhalla/failure.ts';

export interface ValhallaClientOptions {
  /** Base URL, e.g. http://valhalla:8002 (a path prefix is kept). */
  url: string;
  timeoutMs: number;
  /** Largest answer read; a longer one fails the call (a national isochrone is a few MB). */
  maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

function isTimeout(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** A client of the Valhalla server at `options.url`. */
export function valhallaClient(options: ValhallaClientOptions): ValhallaClient {
  const base = options.url.replace(/\/+$/, '');
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return {
    url: base,
    async call(action, body) {
      const signal = AbortSignal.timeout(options.timeoutMs);
      let status: number;
      let text: string;
      try {
        const response = await fetch(`${base}/${action}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          signal,
        });
        status = response.status;
        const length = Number(response.headers.get('content-length') ?? 0);
        if (length > maxBytes) {
          await response.body?.cancel().catch(() => {});
          throw new ValhallaFailure('failed', `valhalla ${action}: answer of ${length} bytes is over ${maxBytes}`, { action, status });
        }
        text = await response.text();
      } catch (err) {
        if (err instanceof ValhallaFailure) throw err;
        if (isTimeout(err) || signal.aborted) {
          throw new ValhallaFailure('unavailable', `valhalla ${action}: no answer within ${options.timeoutMs} ms`, { action });
        }
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        throw new ValhallaFailure('unavailable', `valhalla ${action}: ${cause?.code ?? cause?.message ?? (err as Error).message}`, { action });
      }
      if (text.length > maxBytes) throw new ValhallaFailure('failed', `valhalla ${action}: answer over ${maxBytes} bytes`, { action, status });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        if (status >= 200 && status < 300) throw new ValhallaFailure('failed', `valhalla ${action}: answer is not JSON`, { action, status });
        json = null;
      }
      if (status < 200 || status >= 300) throw answerFailure(action, status, json);
      if (json === null || typeof json !== 'object') throw new ValhallaFailure('failed', `valhalla ${action}: answer is not a JSON object`, { action, status });
      return json;
    },
  };
}
