import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../../api/server.ts';
import { createKey } from '../../lib/keys.ts';
import { migrate } from '../../lib/migrate.ts';
import { createPool } from '../../lib/postgres.ts';
import { checkServices } from '../../lib/preflight.ts';
import type { Redis } from 'ioredis';
import { connectRedis } from '../../lib/redis.ts';
import { enqueueIngest } from '../../jobs/enqueue.ts';
import { createJobLog } from '../../jobs/log.ts';
import { openQueue } from '../../jobs/queues.ts';
import { waitForJob } from '../../jobs/watch.ts';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.ts';
import { findKind, ingestKinds } from '../../jobs/kinds/index.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { CliError } from '../output.ts';
import { onStopSignal } from '../stop-signal.ts';
import { createProgressView } from './ingest-progress.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The bundled sample source of every kind that has one, as the options of `canmap ingest <kind>`. */
const SAMPLE_SOURCES = [{ kind: 'transit', options: { feeds: path.join(ROOT, 'ingest/gtfs/samples/feeds.json') } }];

function examples(baseUrl: string, key: string): string[] {
  const stop = encodeURIComponent('svc:transit:stop:vancouver-bus:GRAN_GEORGIA');
  const auth = `-H 'Authorization: Bearer ${key}'`;
  return [
    `curl ${auth} '${baseUrl}/transit/agencies'`,
    `curl ${auth} '${baseUrl}/transit/stops?near=-123.1175,49.2820&radius=500'`,
    `curl ${auth} '${baseUrl}/transit/stops/${stop}/departures?window=120'`,
    `curl ${auth} '${baseUrl}/transit/stops/${encodeURIComponent('svc:transit:stop:toronto-rail:UNION')}/departures'`,
    `curl ${auth} '${baseUrl}/coverage.json'`,
    `curl '${baseUrl}/openapi.json?key=${key}'`,
  ];
}

export const demoCommand: Command = {
  name: 'demo',
  summary: 'migrate, create a dev key, start API and worker, ingest and enable the bundled sample data, serve until Ctrl-C',
  usage: 'demo',
  async run(argv, { config, out }) {
    parseCommandArgs(argv, {}, this.usage);
    const problems = await checkServices(config);
    if (problems.length) {
      throw new CliError(
        problems.map((p) => `${p.service} does not answer at ${p.url} (${p.error}).\n  start it with: ${p.howToStart}`).join('\n'),
      );
    }
    const migration = await migrate(config.databaseUrl);
    out.info(`database ${migration.database} ready (${migration.applied.length ? `applied ${migration.applied.join(', ')}` : 'up to date'})`);

    const pool = createPool(config.databaseUrl, 2);
    const key = await createKey(pool, { accountId: 'demo', plan: 'hobby' }).finally(() => pool.end());
    const stop = onStopSignal({ first: () => out.info('stopping: finishing in-flight requests and jobs (Ctrl-C again to quit at once)') });
    const log = createJobLog(config.logLevel === 'info' ? 'warn' : config.logLevel, (text) => process.stderr.write(text));
    let workers: RunningWorkers | undefined;
    let server: RunningServer | undefined;
    let redis: Redis | undefined;
    try {
      workers = await startWorkers(config, { kinds: ingestKinds, log });
      const api = (server = await startServer(config, { logger: false }));
      redis = await connectRedis(config.redisUrl);
      const releases: Record<string, string> = {};
      for (const sample of SAMPLE_SOURCES) {
        const kind = findKind(sample.kind)!;
        const payload = { ...(await kind.cli.toPayload([], sample.options)), enable: true };
        const queue = openQueue(config, kind.kind, redis);
        try {
          const { jobId } = await enqueueIngest(config, queue, kind, payload);
          out.info(`ingesting the ${kind.kind} sample (${jobId})`);
          const view = createProgressView(out.json);
          const outcome = await waitForJob(queue, jobId, view.update).finally(view.end);
          if (!outcome.ok) throw new CliError(`the ${kind.kind} sample failed to ingest: ${outcome.reason}`);
          releases[kind.kind] = outcome.result.release;
        } finally {
          await queue.close();
        }
      }
      await waitUntilServed(() => api.app.releases.status(), releases);

      const baseUrl = api.url.replace('127.0.0.1', 'localhost');
      out.result({ key: key.key, keyId: key.id, api: api.url, admin: `${api.adminUrl}/healthz`, releases, examples: examples(baseUrl, key.key) }, () =>
        [
          '',
          `canmap demo is serving at ${api.url} (health: ${api.adminUrl}/healthz, no key needed there)`,
          `releases enabled: ${Object.entries(releases).map(([k, id]) => `${k} ${id}`).join(', ')}`,
          '',
          `dev API key (shown once): ${key.key}`,
          '',
          'try:',
          ...examples(baseUrl, key.key).map((e) => `  ${e}`),
          '',
          'Ctrl-C stops the demo.',
        ].join('\n'),
      );
      await stop.stopped;
    } finally {
      redis?.disconnect();
      await Promise.allSettled([server?.close(), workers?.close()]);
      stop.dispose();
    }
  },
};

/** The API picks an enable up through NOTIFY; wait until every sample release is what it serves. */
async function waitUntilServed(status: () => Record<string, { id: string | null; state: string }>, releases: Record<string, string>) {
  const deadline = Date.now() + 30_000;
  while (Object.entries(releases).some(([kind, id]) => status()[kind]?.id !== id || status()[kind]?.state !== 'ready')) {
    if (Date.now() > deadline) throw new CliError(`the API did not start serving ${JSON.stringify(releases)} within 30 s: ${JSON.stringify(status())}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
