// Child process of bench/auth/run.ts: the two servers under test, so the load generator does not
// share their event loop. Prints one JSON line with both URLs, exits on SIGTERM.
import Fastify from 'fastify';
import { buildApp } from '../../api/app.ts';
import { loadConfig } from '../../lib/config.ts';
import { createPool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';

const config = loadConfig(process.env);
const pool = createPool(config.databaseUrl, 4);

const plain = Fastify({ logger: false });
plain.get('/noop', async () => ({ ok: true }));

const releases = new ReleaseStore({ pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: 600_000 });
const canmap = await buildApp({ config, pool, releases, logger: false });
canmap.get('/noop', async () => ({ ok: true }));

const plainUrl = await plain.listen({ host: '127.0.0.1', port: 0 });
const canmapUrl = await canmap.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ plainUrl, canmapUrl })}\n`);

process.once('SIGTERM', () => {
  void Promise.all([plain.close(), canmap.close()]).then(() => pool.end()).then(() => process.exit(0));
});
