import type { FastifyBaseLogger } from 'fastify';
import type { RateLimiter } from '../../io/access/rate-limit-window.ts';
import type { KeyRecord } from '../../lib/keys.ts';
import { errors } from '../../lib/errors.ts';

export interface RequestLimiter {
  /**
   * Calls `done()` when the key may go on, `done(429 rate_limited)` when it is over its limit
   * (callback style: this runs on every request, and each promise hop costs). Fails open: when
   * Redis does not answer (down, unreachable, slower than the connection's command timeout) the
   * request goes on and a warning is logged, at most once per `warnEveryMs`.
   */
  admit(key: KeyRecord, log: FastifyBaseLogger, done: (err?: Error) => void): void;
}

export interface RequestLimiterOptions {
  limiter: RateLimiter;
  warnEveryMs?: number;
  /** Epoch ms, for spacing the warnings only. */
  now?: () => number;
  /** Told of every request let through unlimited (the fail-open counter of the metrics). */
  onFailOpen?: () => void;
}

export function createRequestLimiter(options: RequestLimiterOptions): RequestLimiter {
  const { limiter } = options;
  const warnEveryMs = options.warnEveryMs ?? 30_000;
  const now = options.now ?? Date.now;
  const windowSeconds = Math.round(limiter.windowMs / 1000);
  let lastWarningAt = -Infinity;
  let unlimitedSinceWarning = 0;
  let failing = false;

  function failOpen(err: unknown, log: FastifyBaseLogger): void {
    failing = true;
    unlimitedSinceWarning += 1;
    options.onFailOpen?.();
    const at = now();
    if (at - lastWarningAt < warnEveryMs) return;
    log.warn(
      { err, unlimitedRequests: unlimitedSinceWarning },
      'rate limit not enforced: Redis did not answer, so requests are let through',
    );
    lastWarningAt = at;
    unlimitedSinceWarning = 0;
  }

  return {
    admit(key, log, done) {
      limiter.hit(key.id).then(
        (decision) => {
          if (failing) {
            failing = false;
            log.info({ unlimitedRequests: unlimitedSinceWarning }, 'rate limit enforced again: Redis answers');
            unlimitedSinceWarning = 0;
          }
          done(decision.allowed ? undefined : errors.rateLimited(limiter.limit, windowSeconds));
        },
        (err: unknown) => {
          failOpen(err, log);
          done();
        },
      );
    },
  };
}
