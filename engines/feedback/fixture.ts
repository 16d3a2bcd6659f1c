import { FEEDBACK_FIXTURE_FORMAT, type FeedbackFixture } from '../../schemas/feedback-api.ts';
import type { StoredReport } from './stored-report.ts';

/**
 * The fixture file of a report: only a confirmed one (volume 2, "a confirmed regression becomes a
 * permanent test fixture where possible"); see schemas/feedback-api.ts FeedbackFixture.
 */
export function reportFixture(report: StoredReport, exportedAtMs: number): FeedbackFixture {
  if (report.status !== 'confirmed' || report.reviewed_at === null) {
    throw new Error(`feedback ${report.id} is ${report.status}: only a confirmed report can be exported as a fixture`);
  }
  return {
    format: FEEDBACK_FIXTURE_FORMAT,
    id: report.id,
    product: report.product,
    category: report.category,
    description: report.description,
    result_id: report.result_id,
    context: report.context,
    status: 'confirmed',
    created_at: report.created_at.toISOString(),
    reviewed_at: report.reviewed_at.toISOString(),
    note: report.note,
    exported_at: new Date(exportedAtMs).toISOString(),
  };
}
