import type pg from 'pg';
import { inTransaction, type Pool } from '../../lib/postgres.ts';
import { FEEDBACK_STATUSES, type FeedbackProduct, type FeedbackStatus } from '../../schemas/feedback-api.ts';
import { secondsUntilNextUtcDay, utcDay } from '../../lib/utc-calendar.ts';
import { newReportId, type ReportInput } from '../../engines/feedback/report.ts';
import { canMove } from '../../engines/feedback/status.ts';
import type { StoredReport } from '../../engines/feedback/stored-report.ts';

/** Feedback reports in Postgres (lib/migrations/004_feedback.sql). */

export type { StoredReport };

const COLUMNS = 'id, product, category, description, result_id, context, status, created_at, reviewed_at, reviewed_by, note';

export type SubmitResult = { accepted: true; report: StoredReport } | { accepted: false; retryAfterSeconds: number };

export interface SubmitInput {
  /** Whom the daily limit counts for (daily-limit.ts limitSubject). */
  subject: string;
  report: ReportInput;
  nowMs: number;
  perDay: number;
}

/**
 * Counts the report against its subject's UTC day and stores it, in one transaction. The upsert
 * only bumps a count still under the limit, and holds the row lock until commit, so concurrent
 * posts of one subject are counted exactly; a refused one stores nothing.
 */
export async function submitReport(pool: Pool, { subject, report, nowMs, perDay }: SubmitInput): Promise<SubmitResult> {
  const day = utcDay(nowMs);
  return inTransaction(pool, async (client) => {
    const counted = await client.query(
      `INSERT INTO feedback_daily_counts (subject, day, reports) VALUES ($1, $2, 1)
       ON CONFLICT (subject, day) DO UPDATE SET reports = feedback_daily_counts.reports + 1
       WHERE feedback_daily_counts.reports < $3
       RETURNING reports`,
      [subject, day, perDay],
    );
    if (counted.rowCount === 0) return { accepted: false, retryAfterSeconds: secondsUntilNextUtcDay(nowMs) };
    const { rows } = await client.query<StoredReport>(
      `INSERT INTO feedback_reports (id, product, category, description, result_id, context, created_at)
       VALUES ($1, $2, $3, $4, $5, $6::json, $7) RETURNING ${COLUMNS}`,
      [newReportId(nowMs), report.product, report.category, report.description, report.result_id, report.context, new Date(nowMs)],
    );
    // Earlier days no longer limit anything: one row per subject stays.
    await client.query('DELETE FROM feedback_daily_counts WHERE subject = $1 AND day < $2', [subject, day]);
    return { accepted: true, report: rows[0]! };
  });
}

export async function getReport(pool: Pool | pg.ClientBase, id: string): Promise<StoredReport | null> {
  const { rows } = await pool.query<StoredReport>(`SELECT ${COLUMNS} FROM feedback_reports WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export interface ListFilter {
  status?: FeedbackStatus;
  product?: FeedbackProduct;
  limit: number;
}

/** Newest first. */
export async function listReports(pool: Pool, filter: ListFilter): Promise<StoredReport[]> {
  const { rows } = await pool.query<StoredReport>(
    `SELECT ${COLUMNS} FROM feedback_reports
     WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR product = $2)
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [filter.status ?? null, filter.product ?? null, filter.limit],
  );
  return rows;
}

export type SetStatusResult =
  | { ok: true; report: StoredReport }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'refused'; from: FeedbackStatus };

export interface Review {
  actor: string;
  note: string | null;
  nowMs: number;
}

/** Moves a report along the state table (status.ts); the move and its check are one statement. */
export async function setReportStatus(pool: Pool, id: string, to: FeedbackStatus, review: Review): Promise<SetStatusResult> {
  const from = FEEDBACK_STATUSES.filter((s) => canMove(s, to));
  const { rows } = await pool.query<StoredReport>(
    `UPDATE feedback_reports SET status = $2, reviewed_at = $3, reviewed_by = $4, note = $5
     WHERE id = $1 AND status = ANY($6::text[]) RETURNING ${COLUMNS}`,
    [id, to, new Date(review.nowMs), review.actor, review.note, from],
  );
  if (rows[0]) return { ok: true, report: rows[0] };
  const current = await getReport(pool, id);
  return current ? { ok: false, reason: 'refused', from: current.status } : { ok: false, reason: 'unknown' };
}
