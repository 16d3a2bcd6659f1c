import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeBatchBody, GeocodeBatchResponse, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { billableQueries, sanitizeBatchQueries } from '../../params/geocoding/batch.ts';
import { sanitizeFreeText } from '../../params/geocoding/free-text.ts';
import { sanitizeSearchControls } from '../../params/geocoding/search-controls.ts';
import { BILLABLE_QUERIES_HEADER } from '../../../engines/access/metering.ts';
import { checkAllowance } from '../../access/allowance-check.ts';

const BATCH_ERRORS: Readonly<Record<number, string>> = {
  ...GEOCODING_ERRORS,
  429: 'quota_exceeded (dev plan) or spend_cap (paid plans), Retry-After 3600: the account\'s remaining allowance this month ' +
    'is below the non-blank queries, so the whole request is refused and nothing is billed',
};

/** POST /geocode/batch: up to 100 searches with shared controls, each answered as GET /geocode/search would. */
export const geocodeBatchRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/geocode/batch', {
    schema: {
      tags: ['geocoding'],
      summary: 'Up to 100 free-text searches in one request',
      description: 'Answer slot i is what GET /geocode/search returns for queries[i] with the shared controls. Whitespace-only ' +
        `entries answer [] and are not billed; the ${BILLABLE_QUERIES_HEADER} response header is the number of calls billed. ` +
        'A batch the account\'s remaining allowance this month cannot cover is refused whole (429).',
      body: GeocodeBatchBody,
      response: { 200: GeocodeBatchResponse, ...errorResponses(BATCH_ERRORS, 400, 403, 413, 429, 503) },
    },
    preValidation: (request, _reply, done) => {
      const queries = sanitizeBatchQueries(request.body);
      if (queries.ok) return done();
      done(queries.status === 413 ? errors.payloadTooLarge(queries.error) : errors.badRequest(queries.error));
    },
  }, async (request, reply) => {
    const { queries } = request.body;
    const search = sanitizeSearchControls(request.body);
    if (!search.ok) throw errors.badRequest(search.error);
    const texts = queries.map((raw, i) => {
      if (raw.trim() === '') return null;
      const q = sanitizeFreeText(raw, request.freeText?.[i]);
      if (!q.ok) throw errors.badRequest(`queries[${i}]: ${q.error}`);
      return q.value;
    });
    const billable = billableQueries(queries);
    await checkAllowance(request, billable, { db: app.pg, dashboardUrl: app.config.dashboardUrl, now: app.now() });
    const answer = await app.services.geocoding.batch({ queries: texts, search: search.value });
    reply.header(BILLABLE_QUERIES_HEADER, String(billable));
    return answer;
  });
};
