import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseReport, type ReportInput } from '../../../engines/feedback/report.ts';
import { errorResponses } from '../../../schemas/common.ts';
import {
  FEEDBACK_BODY_LIMIT_BYTES,
  FEEDBACK_ERRORS,
  FEEDBACK_REPORTS_PER_DAY,
  FeedbackBody,
  FeedbackReceipt,
} from '../../../schemas/feedback-api.ts';
import { errors } from '../../../lib/errors.ts';
import type { KeyRecord } from '../../../lib/keys.ts';
import type { Services } from '../../../services/index.ts';

/** The report each request's raw body holds, read in preValidation (before schema coercion) for its handler. */
export const reports = new WeakMap<FastifyRequest, ReportInput>();

export const FEEDBACK_DESCRIPTION =
  'Authenticated, never metered. Nothing of the request is stored unless context is sent with include_context true. ' +
  `At most ${FEEDBACK_REPORTS_PER_DAY} reports per account (or founder key) per UTC day; over it 429 with Retry-After ` +
  'in seconds until the next UTC day. There is no GET /feedback.';

/** Counts and stores the request's checked report; answers its receipt (201) or the daily-limit 429. */
export async function submitFeedback(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<FeedbackReceipt> {
  const report = reports.get(request);
  const key = request.apiKey;
  if (!report || !key) throw errors.internal();
  const receipt = await storeReport(app.services, key, report);
  reply.code(201).header('cache-control', 'no-store');
  return receipt;
}

/** Counts a checked report against the key's daily limit (429 over it) and stores it: every front door's. */
export function storeReport(services: Services, key: KeyRecord, report: ReportInput): Promise<FeedbackReceipt> {
  return services.feedback.submit({ key, report });
}

/** POST /feedback: a data-correction report about any product (volume 2, "Feedback report"). */
export const feedbackRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/feedback', {
    bodyLimit: FEEDBACK_BODY_LIMIT_BYTES,
    schema: {
      tags: ['feedback'],
      summary: 'Report a data problem',
      description: `${FEEDBACK_DESCRIPTION} One of description and result_id is required.`,
      body: FeedbackBody,
      response: { 201: FeedbackReceipt, ...errorResponses(FEEDBACK_ERRORS, 400, 413, 415, 429) },
    },
    preValidation: (request, _reply, done) => {
      try {
        reports.set(request, parseReport(request.body));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  }, (request, reply) => submitFeedback(app, request, reply));
};
