import type { ServiceDeps } from '../deps.ts';
import { errors } from '../../lib/errors.ts';
import { FEEDBACK_REPORTS_PER_DAY, type FeedbackReceipt } from '../../schemas/feedback-api.ts';
import { limitSubject } from '../../engines/feedback/daily-limit.ts';
import type { ReportInput } from '../../engines/feedback/report.ts';
import { submitReport } from '../../io/feedback/store.ts';

/** A checked report (engines/feedback/report.ts parseReport) and the key that sent it. */
export interface FeedbackSubmission {
  key: { id: string; accountId: string | null };
  report: ReportInput;
}

export interface FeedbackService {
  /** Counts the report against its account's (or founder key's) UTC day and stores it; over the limit a 429 Refusal. */
  submit(submission: FeedbackSubmission): Promise<FeedbackReceipt>;
}

/** Data-correction feedback, stored in Postgres for review (`canmap feedback`). */
export function createFeedbackService(deps: ServiceDeps): FeedbackService {
  return {
    async submit({ key, report }) {
      const result = await submitReport(deps.pool, { subject: limitSubject(key), report, nowMs: deps.now(), perDay: FEEDBACK_REPORTS_PER_DAY });
      if (!result.accepted) throw errors.feedbackLimit(FEEDBACK_REPORTS_PER_DAY, result.retryAfterSeconds);
      return {
        id: result.report.id,
        status: result.report.status,
        created_at: result.report.created_at.toISOString(),
        context_stored: result.report.context !== null,
      };
    },
  };
}
