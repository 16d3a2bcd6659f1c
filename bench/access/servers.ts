// Child process of bench/access/run.ts: the servers under test, so the load generator does not
// share their event loop. Prints one JSON line with their URLs, exits on SIGTERM.
import Fastify from 'fastify';
import { buildApp } from '../../api/app.ts';
import { loadConfig } from '../../lib/config.ts';
import { createPool } from '../../lib/postgres.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import { ReleaseStore } from '../../releases/reader.ts';

const config = loadConfig(process.env);
const pool = createPool(config.databaseUrl, 4);
const redis = createApiRedis(config.redisUrl);
if (!(await redisReady(redis, 5000))) throw new Error(`Redis does not answer at ${config.redisUrl}`);

const plain = Fastify({ logger: false });
plain.get('/noop', async () => ({ ok: true }));

const releases = new ReleaseStore({ pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: 600_000 });
const authOnly = await buildApp({ config, pool, releases, logger: false, meterJournal: null });
authOnly.get('/noop', async () => ({ ok: true }));

// The production limit (a log of 1,000 entries per key), with the window cut to 10 ms so the one
// bench key stays under it at these rates: every request runs the script's full path (push, read
// the 1,000th entry, trim, expire), as a busy key does in production.
const limited = await buildApp({
  config: { ...config, rateLimitPerMinute: 1000 }, pool, releases, logger: false, redis, rateLimit: { windowMs: 10 }, meterJournal: null,
});
limited.get('/noop', async () => ({ ok: true }));

// Rate limit + metering: every answer is appended to the meter journal before it leaves.
const metered = await buildApp({
  config: { ...config, rateLimitPerMinute: 1000 }, pool, releases, logger: false, redis, rateLimit: { windowMs: 10 },
});
metered.get('/noop', async () => ({ ok: true }));

const urls = {
  plainUrl: await plain.listen({ host: '127.0.0.1', port: 0 }),
  authOnlyUrl: await authOnly.listen({ host: '127.0.0.1', port: 0 }),
  limitedUrl: await limited.listen({ host: '127.0.0.1', port: 0 }),
  meteredUrl: await metered.listen({ host: '127.0.0.1', port: 0 }),
};
process.stdout.write(`${JSON.stringify(urls)}\n`);

process.once('SIGTERM', () => {
  void Promise.all([plain.close(), authOnly.close(), limited.close(), metered.close()])
    .then(() => Promise.all([pool.end(), redis.quit()]))
    .then(() => process.exit(0));
});
