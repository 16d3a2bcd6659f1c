import type { FeedbackCategory, FeedbackProduct, FeedbackStatus } from '../../schemas/feedback-api.ts';

/** A feedback report as stored (lib/migrations/004_feedback.sql); io/feedback/store.ts reads and writes it. */
export interface StoredReport {
  id: string;
  product: FeedbackProduct;
  category: FeedbackCategory;
  description: string | null;
  result_id: string | null;
  context: Record<string, unknown> | null;
  status: FeedbackStatus;
  created_at: Date;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  note: string | null;
}
