import pg from 'pg';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { withDatabase } from './postgres.ts';

export interface ServiceProblem {
  service: 'PostgreSQL' | 'Redis';
  url: string;
  error: string;
  howToStart: string;
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
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
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return (err as Error).message || String(err);
  } finally {
    redis.disconnect();
  }
}

/** Which of the two services canmap needs does not answer, and how to start it. */
export async function checkServices(config: Config): Promise<ServiceProblem[]> {
  const [pgError, redisError] = await Promise.all([checkPostgres(config.databaseUrl), checkRedis(config.redisUrl)]);
  const problems: ServiceProblem[] = [];
  if (pgError) {
    problems.push({
      service: 'PostgreSQL',
      url: redact(config.databaseUrl),
      error: pgError,
      howToStart: 'pg_ctlcluster 15 main start   (or set DATABASE_URL to a running server)',
    });
  }
  if (redisError) {
    problems.push({
      service: 'Redis',
      url: redact(config.redisUrl),
      error: redisError,
      howToStart: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no   (or set REDIS_URL)',
    });
  }
  return problems;
}
