import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseReport } from '../../../engines/feedback/report.ts';
import { errorResponses } from '../../../schemas/common.ts';
import {
  FEEDBACK_BODY_LIMIT_BYTES,
  FEEDBACK_ERRORS,
  FeedbackReceipt,
  PlaceFeedbackBody,
  PlaceFeedbackParams,
} from '../../../schemas/feedback-api.ts';
import { errors } from '../../../lib/errors.ts';
import { FEEDBACK_DESCRIPTION, reports, submitFeedback } from './feedback.ts';

/**
 * POST /places/{id}/feedback: a report about one place. product is places and result_id the path's
 * id, overriding whatever the body says (volume 2, "Places"). The id is not looked up: a report may
 * name a place of an earlier corpus (a rebuild may renumber ids), and reports must not depend on
 * the geocoding release being served.
 */
export const placeFeedbackRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/places/:id/feedback', {
    bodyLimit: FEEDBACK_BODY_LIMIT_BYTES,
    schema: {
      tags: ['places', 'feedback'],
      summary: 'Report a problem with one place',
      description: `${FEEDBACK_DESCRIPTION} product (places) and result_id (the path id) override the body.`,
      params: PlaceFeedbackParams,
      body: PlaceFeedbackBody,
      response: { 201: FeedbackReceipt, ...errorResponses({ ...FEEDBACK_ERRORS, 404: 'empty place id' }, 400, 404, 413, 415, 429) },
    },
    preValidation: (request, _reply, done) => {
      try {
        const id = request.params.id;
        if (id === '') throw errors.placeNotFound();
        reports.set(request, parseReport(request.body, { product: 'places', result_id: id }));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  }, (request, reply) => submitFeedback(app, request, reply));
};
