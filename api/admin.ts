import Fastify, { type FastifyInstance } from 'fastify';
import type { Pool } from '../lib/postgres.ts';
import type { ReleaseStore } from '../releases/reader.ts';

const POSTGRES_CHECK_MS = 2000;

async function postgresAnswers(pool: Pool): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), POSTGRES_CHECK_MS)));
  const query = pool.query('SELECT 1').then(() => true, () => false);
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The operators' server on ADMIN_PORT (never exposed publicly): GET /healthz without a key.
 * Always 200 while the process runs; `status` says whether everything is being served.
 */
export function buildAdmin(deps: { pool: Pool; releases: ReleaseStore; logger?: boolean | object }): FastifyInstance {
  const admin = Fastify({ logger: deps.logger ?? false });
  admin.get('/healthz', async () => {
    const postgres = await postgresAnswers(deps.pool);
    const releases = deps.releases.status();
    const allReady = Object.values(releases).every((r) => r.state === 'ready');
    // fullVerify: each kind's last sha256 check of every artifact (at open or in the background).
    return { status: postgres && allReady ? 'ok' : 'degraded', releases, postgres, fullVerify: deps.releases.verification() };
  });
  return admin;
}
