import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { GeocodeResult } from '../../../engines/geocoding/types.ts';
import type { FreeText } from '../../../engines/grammars/free-text.ts';
import { GeocodeBatchBody, GeocodeBatchResponse, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { billableQueries, sanitizeBatchQueries } from '../../params/geocoding/batch.ts';
import { sanitizeFreeText } from '../../params/geocoding/free-text.ts';
import { sanitizeSearchControls } from '../../params/geocoding/search-controls.ts';
import { BILLABLE_QUERIES_HEADER } from '../../../engines/access/metering.ts';
import { checkAllowance, type AllowanceCaller } from '../../access/allowance-check.ts';

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
      try {
        checkBatchQueries(request.body);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  }, async (request, reply) => {
    const { answer, billable } = await geocodeBatch(app, request, request.body, request.freeText);
    reply.header(BILLABLE_QUERIES_HEADER, String(billable));
    return answer;
  });
};

/** The queries of a raw batch body (before schema coercion), refused as the route refuses them: 400, or 413 over 100. */
export function checkBatchQueries(body: unknown): void {
  const queries = sanitizeBatchQueries(body);
  if (!queries.ok) throw queries.status === 413 ? errors.payloadTooLarge(queries.error) : errors.badRequest(queries.error);
}

/**
 * The answer of POST /geocode/batch for a validated body (and its free text, when read already), and
 * the calls it bills; refused whole (429) when the caller's remaining allowance cannot cover them.
 */
export async function geocodeBatch(
  app: FastifyInstance, caller: AllowanceCaller, body: GeocodeBatchBody, freeText: readonly FreeText[] | null | undefined,
): Promise<{ answer: GeocodeResult[][]; billable: number }> {
  const { queries } = body;
  const search = sanitizeSearchControls(body);
  if (!search.ok) throw errors.badRequest(search.error);
  const texts = queries.map((raw, i) => {
    if (raw.trim() === '') return null;
    const q = sanitizeFreeText(raw, freeText?.[i]);
    if (!q.ok) throw errors.badRequest(`queries[${i}]: ${q.error}`);
    return q.value;
  });
  const billable = billableQueries(queries);
  await checkAllowance(caller, billable, { db: app.pg, dashboardUrl: app.config.dashboardUrl, now: app.now() });
  const answer = await app.services.geocoding.batch({ queries: texts, search: search.value });
  return { answer, billable };
}
