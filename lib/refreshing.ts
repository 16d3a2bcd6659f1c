/**
 * A value read from elsewhere (Postgres) and trusted for `ttlMs`. After that the next caller starts
 * one refresh, which concurrent callers share. A failed refresh is reported to `onError` and the
 * last good value keeps being served for another `ttlMs` before the next try (so a Postgres outage
 * costs one failed read per TTL, not one per request); with a value in hand a caller waits at most
 * `waitMs` for a refresh. With no value yet, the refresh's failure is thrown (and the next caller tries again).
 */
export class Refreshing<T> {
  private value: { current: T } | null = null;
  private checkedAt = -Infinity;
  private refreshing: Promise<T> | null = null;

  constructor(
    /** Reads the next value; `previous` is the value being replaced (to reuse what did not change). */
    private readonly load: (previous: T | null) => Promise<T>,
    private readonly options: { ttlMs: number; waitMs: number; onError?: (err: unknown) => void },
  ) {}

  /** The next caller reads again (tests call this right after they change what is read). */
  invalidate(): void {
    this.checkedAt = -Infinity;
  }

  async current(): Promise<T> {
    if (this.value && performance.now() - this.checkedAt < this.options.ttlMs) return this.value.current;
    if (!this.refreshing) {
      this.refreshing = this.refresh().finally(() => (this.refreshing = null));
      this.refreshing.catch((err: unknown) => this.options.onError?.(err));
    }
    if (!this.value) return this.refreshing;
    const previous = this.value.current;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(previous), this.options.waitMs)));
    try {
      return await Promise.race([this.refreshing.catch(() => previous), waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async refresh(): Promise<T> {
    try {
      const next = await this.load(this.value?.current ?? null);
      this.value = { current: next };
      return next;
    } finally {
      if (this.value) this.checkedAt = performance.now();
    }
  }
}
