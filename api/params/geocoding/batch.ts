import { MAX_BATCH_QUERIES } from '../../../schemas/geocoding-api.ts';

export type BatchQueries = { ok: true; value: string[] } | { ok: false; status: 400 | 413; error: string };

const SHAPE = `queries must be an array of 1 to ${MAX_BATCH_QUERIES} strings`;

/**
 * The queries of a batch body, read before schema validation (whose type coercion would turn
 * a number into a string and a lone string into an array): missing, empty or not an array of
 * strings → 400; more than 100 → 413 payload_too_large.
 */
export function sanitizeBatchQueries(body: unknown): BatchQueries {
  const queries = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { queries?: unknown }).queries : undefined;
  if (!Array.isArray(queries) || queries.length === 0) return { ok: false, status: 400, error: SHAPE };
  if (queries.length > MAX_BATCH_QUERIES) {
    return { ok: false, status: 413, error: `queries holds ${queries.length} entries; at most ${MAX_BATCH_QUERIES} per request` };
  }
  const bad = queries.findIndex((q) => typeof q !== 'string');
  if (bad >= 0) return { ok: false, status: 400, error: `queries[${bad}] must be a string` };
  return { ok: true, value: queries as string[] };
}

/** Batch is billed one call per non-blank query (volume 1, "What counts as a call"). */
export function billableQueries(queries: string[]): number {
  return queries.reduce((n, q) => (q.trim() === '' ? n : n + 1), 0);
}
