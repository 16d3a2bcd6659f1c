/** UTC calendar days and months of epoch-ms instants, as Postgres takes them and usage is kept. */

const DAY_MS = 86_400_000;

// The meter asks for the day of every answer: the last day's string is kept for its whole span.
let cachedStart = 0;
let cachedEnd = 0;
let cachedDay = '';

/** The UTC day of an instant: `YYYY-MM-DD`. */
export function utcDay(epochMs: number): string {
  if (epochMs >= cachedStart && epochMs < cachedEnd) return cachedDay;
  cachedStart = Math.floor(epochMs / DAY_MS) * DAY_MS;
  cachedEnd = cachedStart + DAY_MS;
  cachedDay = new Date(epochMs).toISOString().slice(0, 10);
  return cachedDay;
}

/** The UTC month of an instant: `YYYY-MM`. */
export function utcMonth(at: number | Date): string {
  return new Date(at).toISOString().slice(0, 7);
}

/** Whole seconds from now until the next UTC midnight, at least 1. */
export function secondsUntilNextUtcDay(nowMs: number): number {
  const nextDay = (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
  return Math.max(1, Math.ceil((nextDay - nowMs) / 1000));
}
