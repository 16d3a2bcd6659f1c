import type { FastifyRequest } from 'fastify';
import { readFreeText, type FreeText } from '../../../engines/grammars/free-text.ts';
import { accept, type Checked } from '../../../lib/checked.ts';
import { sanitizeQ } from './text.ts';

const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * preHandler of the geocode routes: reads q (POST /geocode/batch: each of queries) once, on the
 * request. A route's own preHandlers run after its plugin's, so the premium-capability check
 * (api/access/capability-check.ts) decides on this reading and the search parses the same one.
 */
export async function readRequestFreeText(request: FastifyRequest): Promise<void> {
  const raw = request.method === 'POST' ? (request.body as { queries?: unknown } | undefined)?.queries : (request.query as { q?: unknown }).q;
  request.freeText = strings(raw).map(readFreeText);
}

/** q checked as sanitizeQ does, as the free text `read` by readRequestFreeText (read here only when that did not run). */
export function sanitizeFreeText(raw: unknown, read: FreeText | undefined): Checked<FreeText> {
  const q = sanitizeQ(raw);
  if (!q.ok) return q;
  return accept(read ?? readFreeText(q.value));
}
