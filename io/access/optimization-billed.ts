import type { Queryable } from './usage.ts';

/**
 * The 24-hour billing windows of optimization shipments (volume 3, "Optimization", Billing 2), in
 * lib/migrations/010_optimization_billing.sql. Which shipments are billed, and how an identity is
 * built, is engines/access/optimization-billing-rules.ts.
 */

/** Of `identities`, those the payer was first billed for less than 24 hours before `now`: free to solve again. */
export async function firstBilledWithin24h(db: Queryable, payer: string, identities: readonly string[], now: Date): Promise<Set<string>> {
  if (identities.length === 0) return new Set();
  const { rows } = await db.query<{ identity: string }>(
    `SELECT identity FROM optimization_billed
      WHERE payer = $1 AND identity = ANY($2::text[]) AND billed_at > $3::timestamptz - interval '24 hours'`,
    [payer, [...new Set(identities)], now],
  );
  return new Set(rows.map((r) => r.identity));
}

/**
 * Bills the identities that have no billing in the 24 hours before `now`, and returns those (each
 * once). A row inside its window is left alone, so re-solves never extend it; a row whose window
 * has ended starts a new one at `now`. Two concurrent calls for the same identity bill it once:
 * the second waits on the first's row lock, then re-checks billed_at on the committed row.
 */
export async function recordBilled(db: Queryable, payer: string, identities: readonly string[], now: Date): Promise<string[]> {
  if (identities.length === 0) return [];
  // Distinct (ON CONFLICT cannot touch a row twice) and sorted (concurrent batches lock rows in one order: no deadlock).
  const distinct = [...new Set(identities)].sort();
  const { rows } = await db.query<{ identity: string }>(
    `INSERT INTO optimization_billed AS b (payer, identity, billed_at)
     SELECT $1, i, $3 FROM unnest($2::text[]) WITH ORDINALITY AS t (i, n) ORDER BY n
     ON CONFLICT (payer, identity) DO UPDATE SET billed_at = EXCLUDED.billed_at
       WHERE b.billed_at <= EXCLUDED.billed_at - interval '24 hours'
     RETURNING identity`,
    [payer, distinct, now],
  );
  return rows.map((r) => r.identity);
}

/** Deletes rows whose window ended by `now` (they no longer make anything free); returns how many. */
export async function pruneBilled(db: Queryable, now: Date): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM optimization_billed WHERE billed_at <= $1::timestamptz - interval '24 hours'`,
    [now],
  );
  return rowCount ?? 0;
}
