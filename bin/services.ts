import type { Config } from '../lib/config.ts';
import { checkServices, describeServiceProblems } from '../lib/preflight.ts';
import { RedisUnavailableError } from '../lib/redis.ts';

/** Error codes of a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P03']);

function looksLikeConnectionError(err: unknown): boolean {
  if (err instanceof RedisUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  // node-postgres says so in words when its connection timeout or a dropped connection ends a query.
  return /^Connection terminated|timeout exceeded when trying to connect/.test(err.message)
    || (err instanceof AggregateError && err.errors.some(looksLikeConnectionError));
}

/**
 * For a command that failed because PostgreSQL or Redis does not answer: which one, where, and
 * how to start it (the demo's preflight message). Null for any other error, or when both answer.
 */
export async function explainServiceError(err: unknown, config: Config): Promise<string | null> {
  const code = (err as { code?: unknown } | null)?.code;
  // 3D000: no such database; 42P01: no such table (migrations not applied).
  if (code === '3D000' || code === '42P01') return `${(err as Error).message}; create the schema with: canmap migrate`;
  if (!looksLikeConnectionError(err)) return null;
  const problems = await checkServices(config).catch(() => []);
  return problems.length ? describeServiceProblems(problems) : null;
}
