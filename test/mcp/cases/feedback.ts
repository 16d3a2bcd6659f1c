import type { McpCase } from './case.ts';

/**
 * The tool call and the HTTP request each store a report of their own: their receipts differ in id
 * and created_at, so those are compared by shape (fb_<epoch ms>_<16 hex>, ISO 8601 UTC with ms).
 */
function receiptShape(answer: unknown): unknown {
  if (answer === null || typeof answer !== 'object') return answer;
  const { id, created_at: createdAt, ...rest } = answer as { id?: unknown; created_at?: unknown };
  return {
    ...rest,
    id: typeof id === 'string' && /^fb_\d{13}_[0-9a-f]{16}$/.test(id) ? 'fb_<ms>_<hex>' : id,
    created_at: typeof createdAt === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(createdAt) ? '<iso>' : createdAt,
  };
}

const REPORT = { product: 'geocoding', category: 'incorrect_location', description: 'pin is one block east', result_id: 'demo' };
const WITH_CONTEXT = { ...REPORT, include_context: true, context: { url: '/geocode/search?q=Vancouver' } };
const STRING_FLAG = { ...REPORT, include_context: 'true', context: { url: '/geocode/search?q=Vancouver' } };

export const feedbackCases: McpCase[] = [
  {
    name: 'report_feedback: a report is stored (two reports: id and created_at compared by shape)',
    status: 201,
    tool: 'report_feedback',
    args: REPORT,
    http: { method: 'POST', url: '/feedback', body: REPORT },
    normalize: receiptShape,
  },
  {
    name: 'report_feedback: a report with its context kept (two reports: id and created_at compared by shape)',
    status: 201,
    tool: 'report_feedback',
    args: WITH_CONTEXT,
    http: { method: 'POST', url: '/feedback', body: WITH_CONTEXT },
    normalize: receiptShape,
  },
  {
    name: 'report_feedback: an unknown category is the same 400',
    tool: 'report_feedback',
    args: { ...REPORT, category: 'nope' },
    http: { method: 'POST', url: '/feedback', body: { ...REPORT, category: 'nope' } },
    refused: 400,
  },
  {
    name: 'report_feedback: include_context "true" (a string) is the same 400 (checked before schema coercion)',
    tool: 'report_feedback',
    args: STRING_FLAG,
    http: { method: 'POST', url: '/feedback', body: STRING_FLAG },
    refused: 400,
  },
];
