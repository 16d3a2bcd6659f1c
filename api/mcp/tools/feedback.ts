import { parseReport, type ReportInput } from '../../../engines/feedback/report.ts';
import {
  FEEDBACK_CATEGORIES, FEEDBACK_PRODUCTS, FEEDBACK_REPORTS_PER_DAY, FeedbackBody, FeedbackReceipt, MAX_CONTEXT_BYTES, MAX_DESCRIPTION_CHARS,
} from '../../../schemas/feedback-api.ts';
import { storeReport } from '../../routes/feedback/feedback.ts';
import { endpointTool } from '../endpoint-tool.ts';
import type { McpTool } from '../tool.ts';

export const feedbackTools: McpTool[] = [endpointTool({
  name: 'report_feedback',
  title: 'Report wrong or missing map data',
  description: 'Files a data-correction report for review (it writes: each call stores one new report and answers its ' +
    `receipt: id, status "new", created_at). product: one of ${FEEDBACK_PRODUCTS.join(', ')}. category: one of ` +
    `${FEEDBACK_CATEGORIES.join(', ')}. One of description (up to ${MAX_DESCRIPTION_CHARS} characters) and result_id (the id ` +
    'of the wrong result, e.g. a place id) is required. context (the request being reported, a JSON object up to ' +
    `${MAX_CONTEXT_BYTES} bytes) is stored only with include_context true. Never billed; at most ${FEEDBACK_REPORTS_PER_DAY} ` +
    'reports per account per UTC day (429 over it). ' +
    'Example: {"product": "geocoding", "category": "incorrect_location", "description": "pin is one block east", ' +
    '"result_id": "demo"}. One call of POST /feedback.',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  method: 'POST',
  route: '/feedback',
  body: FeedbackBody,
  response: FeedbackReceipt,
  // The report is read from the arguments as sent, as the route's preValidation reads its body.
  readRaw: parseReport,
  answer: async (input, { app, request }) => ({ value: await storeReport(app.services, request.apiKey!, input.raw as ReportInput) }),
})];
