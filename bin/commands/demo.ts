import type { Redis } from 'ioredis';
import { startServer, type RunningServer } from '../../api/server.ts';
import { configuredHttp } from '../../ingest/road-events/http-json.ts';
import { pollRoadEvents } from '../../ingest/road-events/poll.ts';
import { backgroundJobs } from '../../jobs/background.ts';
import { createJobLog } from '../../jobs/log.ts';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.ts';
import { issueLoginToken } from '../../io/access/sessions.ts';
import { createKey } from '../../io/access/key-store.ts';
import { migrate } from '../../lib/migrate.ts';
import { createPool } from '../../lib/postgres.ts';
import { checkServices } from '../../lib/preflight.ts';
import { connectRedis } from '../../lib/redis.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { demoExamples, DEV_ORIGIN } from '../demo/examples.ts';
import { mcpClientConfig } from '../demo/mcp-config.ts';
import { ROAD_EVENT_SAMPLES, startDemoPublishers, type DemoPublishers } from '../demo/publishers.ts';
import { ingestReleaseSamples, waitUntilServed } from '../demo/release-samples.ts';
import { CliError } from '../output.ts';
import { onStopSignal } from '../stop-signal.ts';

/** The demo's dashboard link lasts as long as a session, so it still works when someone gets to it. */
const DEMO_LOGIN_TTL_MS = 12 * 60 * 60_000;

export const demoCommand: Command = {
  name: 'demo',
  summary: 'migrate, create a dev key, start API and worker, ingest and enable the bundled sample data, serve until Ctrl-C',
  usage: 'demo',
  async run(argv, { config: baseConfig, out }) {
    parseCommandArgs(argv, {}, this.usage);
    const problems = await checkServices(baseConfig);
    if (problems.length) {
      throw new CliError(
        problems.map((p) => `${p.service} does not answer at ${p.url} (${p.error}).\n  start it with: ${p.howToStart}`).join('\n'),
      );
    }
    const migration = await migrate(baseConfig.databaseUrl);
    out.info(`database ${migration.database} ready (${migration.applied.length ? `applied ${migration.applied.join(', ')}` : 'up to date'})`);

    const pool = createPool(baseConfig.databaseUrl, 2);
    const stop = onStopSignal({ first: () => out.info('stopping: finishing in-flight requests and jobs (Ctrl-C again to quit at once)') });
    const log = createJobLog(baseConfig.logLevel === 'info' ? 'warn' : baseConfig.logLevel, (text) => process.stderr.write(text));
    let publishers: DemoPublishers | undefined;
    let workers: RunningWorkers | undefined;
    let server: RunningServer | undefined;
    let redis: Redis | undefined;
    try {
      const key = await createKey(pool, { accountId: 'demo', plan: 'hobby' });
      // Road events are polled on schedule from stand-ins serving the bundled samples.
      publishers = await startDemoPublishers(ROAD_EVENT_SAMPLES);
      const config = { ...baseConfig, matrixEnabled: true, open511Url: publishers.open511Url, alberta511Url: publishers.alberta511Url, ontario511Url: publishers.ontario511Url };
      // Everything `canmap worker` runs, the tiling of uploads included.
      workers = await startWorkers(config, { ...backgroundJobs, log });
      const background = workers.workers.map((w) => w.name);
      out.info(`background jobs: ${background.join(', ')}`);
      const api = (server = await startServer(config, { logger: false }));
      redis = await connectRedis(config.redisUrl);

      const releases = await ingestReleaseSamples(config, redis, out);
      const poll = await pollRoadEvents(pool, { url: config.open511Url, http: configuredHttp(config) });
      out.info(`road events: ${poll.events} sample events stored (${poll.outcome})`);
      await waitUntilServed(() => api.app.releases.status(), releases);

      const baseUrl = api.url.replace('127.0.0.1', 'localhost');
      const examples = demoExamples(baseUrl, key.key);
      const login = await issueLoginToken(pool, 'demo', Date.now(), DEMO_LOGIN_TTL_MS);
      const dashboard = `${baseUrl}/account/login?token=${login.token}`;
      const mcp = mcpClientConfig(baseUrl, key.key);
      out.result({ key: key.key, keyId: key.id, api: api.url, admin: `${api.adminUrl}/healthz`, dashboard, releases, roadEvents: poll.events, background, examples, mcp }, () =>
        [
          '',
          `canmap demo is serving at ${api.url} (health: ${api.adminUrl}/healthz, no key needed there)`,
          `releases enabled: ${Object.entries(releases).map(([k, id]) => `${k} ${id}`).join(', ')}; road events: ${poll.events} (polled every ${config.roadEventsPollMs / 1000} s)`,
          '',
          `dev API key (shown once): ${key.key}`,
          `account dashboard (open in a browser, works once, for 12 hours): ${dashboard} (the account page, /account/)`,
          '',
          `agents: the MCP server at ${baseUrl}/mcp offers every capability as tools (docs/mcp.md); an MCP client configuration:`,
          ...JSON.stringify(mcp, null, 2).split('\n').map((line) => `  ${line}`),
          '',
          `the dev key serves legal land, energy and parcel data to dev origins only: those examples send -H 'Origin: ${DEV_ORIGIN}'`,
          'try:',
          ...examples.map((e) => `  ${e}`),
          '',
          'Ctrl-C stops the demo.',
        ].join('\n'),
      );
      await stop.stopped;
    } finally {
      redis?.disconnect();
      await Promise.allSettled([server?.close(), workers?.close()]);
      await Promise.allSettled([publishers?.close(), pool.end()]);
      stop.dispose();
    }
  },
};
