import type { Pool } from '../../lib/postgres.ts';

/**
 * Reading the metered calls of `usage_daily` (lib/migrations/005_usage.sql, written by
 * meter-journal-file.ts). Days are UTC dates `YYYY-MM-DD`; a month is the sum of its days.
 */

/** Anything with pg's `query`: the pool, or a client inside a transaction. */
export type Queryable = Pick<Pool, 'query'>;

export interface UsageRow {
  /** UTC date, `YYYY-MM-DD`. */
  day: string;
  /** Endpoint family (engines/access/metering.ts FAMILIES). */
  family: string;
  /** Non-dev (billable) calls. */
  calls: number;
  /** Dev-origin calls: counted, shown as `dev:<family>`, never billed. */
  devCalls: number;
  /** Calls (dev or not) that used a premium capability. */
  premiumCalls: number;
}

export interface UsageTotals {
  /** Non-dev calls: what the plan's included volume, overage and quota count. */
  billable: number;
  /** Dev-origin calls: never billed, ignored by the quota. */
  dev: number;
  /** Premium calls, dev or not: what the dev plan's monthly premium ceiling counts. */
  premium: number;
}

export interface UsageReport {
  /** Inclusive UTC dates. */
  from: string;
  to: string;
  /** One row per day and family that has calls, by day then family. */
  rows: UsageRow[];
  totals: UsageTotals;
}

export interface MonthUsage extends UsageReport {
  /** `YYYY-MM`. */
  month: string;
}

export interface UsageFilter {
  /** Only this account's keys. */
  accountId?: string;
  /** Only this key. */
  keyId?: string;
}

// Years 0001 to 9999: there is no year 0 in Postgres dates (JavaScript's Date accepts one).
const DAY = /^(?!0000)(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(?!0000)(\d{4})-(\d{2})$/;

export class UsageInputError extends Error {}

function checkDay(value: string, name: string): string {
  const m = DAY.exec(value);
  const date = m ? new Date(`${value}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new UsageInputError(`${name} must be a date YYYY-MM-DD, got "${value}"`);
  }
  return value;
}

/** The first and last UTC day of a `YYYY-MM` month. */
export function monthBounds(month: string): { from: string; to: string } {
  const m = MONTH.exec(month);
  const monthIndex = m ? Number(m[2]) - 1 : -1;
  if (!m || monthIndex < 0 || monthIndex > 11) throw new UsageInputError(`month must be YYYY-MM, got "${month}"`);
  const year = Number(m[1]);
  const last = new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** Calls per day and family in [from, to] (inclusive UTC dates), with the dev split and totals. */
export async function usageByDay(
  db: Queryable,
  options: UsageFilter & { from: string; to: string },
): Promise<UsageReport> {
  const from = checkDay(options.from, 'from');
  const to = checkDay(options.to, 'to');
  const result = await db.query<{ day: string; family: string; calls: number; dev_calls: number; premium_calls: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, family,
            coalesce(sum(calls) FILTER (WHERE NOT dev), 0)::int8 AS calls,
            coalesce(sum(calls) FILTER (WHERE dev), 0)::int8 AS dev_calls,
            sum(premium_calls)::int8 AS premium_calls
       FROM usage_daily
      WHERE day BETWEEN $1::date AND $2::date
        AND ($3::text IS NULL OR account_id = $3)
        AND ($4::text IS NULL OR key_id = $4)
      GROUP BY day, family
      ORDER BY day, family`,
    [from, to, options.accountId ?? null, options.keyId ?? null],
  );
  const rows = result.rows.map((r) => ({
    day: r.day, family: r.family, calls: Number(r.calls), devCalls: Number(r.dev_calls), premiumCalls: Number(r.premium_calls),
  }));
  const totals = rows.reduce<UsageTotals>(
    (t, r) => ({ billable: t.billable + r.calls, dev: t.dev + r.devCalls, premium: t.premium + r.premiumCalls }),
    { billable: 0, dev: 0, premium: 0 },
  );
  return { from, to, rows, totals };
}

/**
 * One UTC calendar month (`YYYY-MM`) of an account's (or key's, or everyone's) calls:
 * `totals.billable` is what the plan's included volume and quota are measured against.
 */
export async function monthUsage(db: Queryable, options: UsageFilter & { month: string }): Promise<MonthUsage> {
  const { from, to } = monthBounds(options.month);
  const report = await usageByDay(db, { accountId: options.accountId, keyId: options.keyId, from, to });
  return { month: options.month, ...report };
}

/** Billable, dev and premium totals of every account with calls in a month (keys without an account left out). */
export async function monthTotalsByAccount(db: Queryable, month: string): Promise<Map<string, UsageTotals>> {
  const { from, to } = monthBounds(month);
  const result = await db.query<{ account_id: string; billable: number; dev: number; premium: number }>(
    `SELECT account_id,
            coalesce(sum(calls) FILTER (WHERE NOT dev), 0)::int8 AS billable,
            coalesce(sum(calls) FILTER (WHERE dev), 0)::int8 AS dev,
            sum(premium_calls)::int8 AS premium
       FROM usage_daily
      WHERE day BETWEEN $1::date AND $2::date AND account_id IS NOT NULL
      GROUP BY account_id`,
    [from, to],
  );
  return new Map(result.rows.map((r) => [r.account_id, { billable: Number(r.billable), dev: Number(r.dev), premium: Number(r.premium) }]));
}
