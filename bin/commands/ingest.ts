import { InvalidInputError } from '../../ingest/errors.ts';
import type { Config } from '../../lib/config.ts';
import { createPool } from '../../lib/postgres.ts';
import { connectRedis } from '../../lib/redis.ts';
import { enqueueIngest, InvalidPayloadError } from '../../jobs/enqueue.ts';
import { findKind, ingestKinds, kindNames } from '../../jobs/kinds/index.ts';
import { openQueue } from '../../jobs/queues.ts';
import { waitForJob } from '../../jobs/watch.ts';
import { enableRelease, ReleaseError } from '../../releases/registry.ts';
import { cliActor } from '../actor.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { CliError } from '../output.ts';
import { createProgressView } from './ingest-progress.ts';
import { ROAD_EVENTS_USAGE, runRoadEventsIngest } from './ingest-road-events.ts';

const COMMON = '[--enable] [--wait]';

/**
 * Enables a release the job built without enabling it: `--enable` upgraded a job that was already
 * running, after its worker had read the payload for the last time.
 */
async function enableBuilt(config: Config, jobId: string, releaseId: string): Promise<void> {
  const pool = createPool(config.databaseUrl, 1);
  try {
    await enableRelease(pool, releaseId, cliActor());
  } catch (err) {
    if (err instanceof ReleaseError) throw new CliError(`job ${jobId} built release ${releaseId} but it could not be enabled: ${err.message}`);
    throw err;
  } finally {
    await pool.end();
  }
}

export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'queue an ingest of a source into a new release (--enable: enable it when built; --wait: follow the job)',
  usage: `ingest ${ingestKinds.map((k) => k.cli.usage).join(' | ')} ${COMMON} | ingest ${ROAD_EVENTS_USAGE}`,
  async run(argv, { config, out }) {
    const name = argv[0];
    // Road events are a live poll, not a release kind: one poll now, in this process.
    if (name === 'road-events') return runRoadEventsIngest(argv.slice(1), { config, out });
    const kind = name && !name.startsWith('-') ? findKind(name) : undefined;
    if (!kind) {
      const list = [...kindNames(), 'road-events'].join(', ');
      throw new CliError(name && !name.startsWith('-') ? `unknown kind "${name}"; kinds: ${list}` : `a kind is required; kinds: ${list}\nusage: canmap ${this.usage}`, 2);
    }
    const usage = `ingest ${kind.cli.usage} ${COMMON}`;
    const { values, positionals } = parseCommandArgs(argv.slice(1), { ...kind.cli.options, enable: { type: 'boolean' }, wait: { type: 'boolean' } }, usage);
    let payload;
    try {
      payload = { ...(await kind.cli.toPayload(positionals, values)), enable: values.enable === true };
    } catch (err) {
      if (err instanceof InvalidInputError) throw new CliError(`${err.message}\nusage: canmap ${usage}`, 2);
      throw err;
    }

    const connection = await connectRedis(config.redisUrl);
    const queue = openQueue(config, kind.kind, connection);
    try {
      let enqueued;
      try {
        enqueued = await enqueueIngest(config, queue, kind, payload);
      } catch (err) {
        if (err instanceof InvalidPayloadError) throw new CliError(err.message, 2);
        throw err;
      }
      const { jobId } = enqueued;
      if (!values.wait) {
        if (payload.enable && enqueued.state === 'active') {
          out.info(`${jobId} is already running: --enable applies only if it has not finished publishing (--wait makes sure)`);
        }
        out.result({ job: jobId, state: enqueued.state }, enqueued.created ? jobId : `${jobId} (already ${enqueued.state})`);
        return;
      }
      out.info(enqueued.created ? `queued ${jobId}` : `${jobId} is already ${enqueued.state}; following it`);
      const view = createProgressView(out.json);
      const outcome = await waitForJob(queue, jobId, view.update).finally(view.end);
      if (!outcome.ok) {
        if (out.json) out.result({ error: outcome.reason, job: jobId }, '');
        else out.info(`job ${jobId} failed: ${outcome.reason}`);
        return 1;
      }
      const { release, reused } = outcome.result;
      let enabled = outcome.result.enabled === true;
      if (payload.enable && !enabled) {
        await enableBuilt(config, jobId, release);
        enabled = true;
      }
      out.result({ job: jobId, release, reused, enabled }, `${release}${reused ? ' (existing release, same content)' : ''}${enabled ? ', enabled' : ''}`);
    } finally {
      await queue.close();
      await connection.quit().catch(() => connection.disconnect());
    }
  },
};
