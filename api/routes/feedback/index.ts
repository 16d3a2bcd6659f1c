import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { feedbackRoute } from './feedback.ts';
import { placeFeedbackRoute } from './place-feedback.ts';

/** Data-correction feedback of volume 2, stored in Postgres for review (`canmap feedback`). */
export const feedbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(feedbackRoute);
  await app.register(placeFeedbackRoute);
};
