import pg from 'pg';
import type { Config } from './config.ts';
import { withDatabase } from './postgres.ts';
import { redactUrl } from './redact-url.ts';
import { connectRedis, RedisUnavailableError } from './redis.ts';

export interface ServiceProblem {
  service: 'PostgreSQL' | 'Redis';
  url: string;
  error: string;
  howToStart: string;
}

async function checkPostgres(databaseUrl: string): Promise<string | null> {
  // The maintenance database: ours may not exist yet (migrate creates it).
  const client = new pg.Client({ connectionString: withDatabase(databaseUrl, 'postgres'), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return (err as Error).message || String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

async function checkRedis(redisUrl: string): Promise<string | null> {
  try {
    (await connectRedis(redisUrl, 3000)).disconnect();
    return null;
  } catch (err) {
    if (err instanceof RedisUnavailableError) return err.reason;
    throw err;
  }
}

/** Which of the two services canmap needs does not answer, and how to start it. */
export async function checkServices(config: Config): Promise<ServiceProblem[]> {
  const [pgError, redisError] = await Promise.all([checkPostgres(config.databaseUrl), checkRedis(config.redisUrl)]);
  const problems: ServiceProblem[] = [];
  if (pgError) {
    problems.push({
      service: 'PostgreSQL',
      url: redactUrl(config.databaseUrl),
      error: pgError,
      howToStart: 'pg_ctlcluster 15 main start   (or set DATABASE_URL to a running server)',
    });
  }
  if (redisError) {
    problems.push({
      service: 'Redis',
      url: redactUrl(config.redisUrl),
      error: redisError,
      howToStart: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no   (or set REDIS_URL)',
    });
  }
  return problems;
}

/** One paragraph per service: where it does not answer, why, and how to start it. */
export function describeServiceProblems(problems: readonly ServiceProblem[]): string {
  return problems.map((p) => `${p.service} does not answer at ${p.url} (${p.error}).\n  start it with: ${p.howToStart}`).join('\n');
}
