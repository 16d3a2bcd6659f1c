import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeBatchBody, GeocodeBatchResponse, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { freeTextSearch } from '../../geocoding/free-text.ts';
import { billableQueries, sanitizeBatchQueries } from '../../params/geocoding/batch.ts';
import { sanitizeSearchControls } from '../../params/geocoding/search-controls.ts';
import { sanitizeQ } from '../../params/geocoding/text.ts';
import { BILLABLE_QUERIES_HEADER } from '../../../engines/access/metering.ts';

/** POST /geocode/batch: up to 100 searches with shared controls, each answered as GET /geocode/search would. */
export const batchRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/geocode/batch', {
    schema: {
      tags: ['geocoding'],
      summary: 'Up to 100 free-text searches in one request',
      description: 'Answer slot i is what GET /geocode/search returns for queries[i] with the shared controls. Whitespace-only ' +
        `entries answer [] and are not billed; the ${BILLABLE_QUERIES_HEADER} response header is the number of calls billed.`,
      body: GeocodeBatchBody,
      response: { 200: GeocodeBatchResponse, ...errorResponses(GEOCODING_ERRORS, 400, 403, 413, 503) },
    },
    preValidation: (request, _reply, done) => {
      const queries = sanitizeBatchQueries(request.body);
      if (queries.ok) return done();
      done(queries.status === 413 ? errors.payloadTooLarge(queries.error) : errors.badRequest(queries.error));
    },
  }, async (request, reply) => {
    const { queries } = request.body;
    const sanitized = sanitizeSearchControls(request.body);
    if (!sanitized.ok) throw errors.badRequest(sanitized.error);
    const texts = queries.map((raw, i) => {
      if (raw.trim() === '') return null;
      const q = sanitizeQ(raw);
      if (!q.ok) throw errors.badRequest(`queries[${i}]: ${q.error}`);
      return q.value;
    });
    const answer = await freeTextSearch(app.releases, texts, sanitized.value, { geometry: false, label: (i) => `queries[${i}]: ` });
    reply.header(BILLABLE_QUERIES_HEADER, String(billableQueries(queries)));
    return answer;
  });
};
