const DAY_MS = 86_400_000;

/** The UTC day of an instant, as Postgres takes a date: YYYY-MM-DD. */
export function utcDay(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

/** Whole seconds from now until the next UTC midnight, at least 1 (the Retry-After of the daily limit). */
export function secondsUntilNextUtcDay(nowMs: number): number {
  const nextDay = (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
  return Math.max(1, Math.ceil((nextDay - nowMs) / 1000));
}

/** Who the limit counts for: the account, or the key itself for founder keys (no account). */
export function limitSubject(key: { id: string; accountId: string | null }): string {
  return key.accountId !== null ? `account:${key.accountId}` : `key:${key.id}`;
}
