import { InvalidInputError } from '../../ingest/errors.ts';
import type { Config } from '../../lib/config.ts';
import { createPool } from '../../lib/postgres.ts';
import { connectRedis } from '../../lib/redis.ts';
import { enqueueIngest, InvalidPayloadError } from '../../jobs/enqueue.ts';
import { findKind, ingestKinds, kindNames } from '../../jobs/kinds/index.ts';
import { openQueue } from '../../jobs/queues.ts';
import { waitForJob } from '../../jobs/watch.ts';
import { openReleaseBucket } from '../../releases/object-store/open-bucket.ts';
import { enableRelease, getEnabledRelease, ReleaseError } from '../../releases/registry.ts';
import { ShrinkRefusedError } from '../../releases/shrink.ts';
import { cliActor } from '../actor.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { KIND_ALIASES, resolveName, unknownNameError } from '../names.ts';
import { CliError } from '../output.ts';
import { createProgressView } from './ingest-progress.ts';
import { ROAD_EVENTS_USAGE, runRoadEventsIngest } from './ingest-road-events.ts';

const COMMON = '[--enable] [--wait]';
/** How long a queued job may sit with no worker on its queue before --wait says so. */
const NO_WORKER_NOTICE_MS = 5000;

/**
 * Enables a release the job built without enabling it (`--enable` upgraded a job that was already
 * running, after its worker had read the payload for the last time). Returns why it was refused
 * when its counts fell too far.
 */
async function enableBuilt(config: Config, jobId: string, releaseId: string): Promise<string | undefined> {
  const pool = createPool(config.databaseUrl, 1);
  const store = await openReleaseBucket(config);
  try {
    await enableRelease(pool, releaseId, cliActor(), { store });
    return undefined;
  } catch (err) {
    if (err instanceof ShrinkRefusedError) return err.message;
    if (err instanceof ReleaseError) throw new CliError(`job ${jobId} built release ${releaseId} but it could not be enabled: ${err.message}`);
    throw err;
  } finally {
    store?.close();
    await pool.end();
  }
}

/** Whether `releaseId` is what its kind serves now, whoever enabled it. */
async function isEnabled(config: Config, kind: string, releaseId: string): Promise<boolean> {
  const pool = createPool(config.databaseUrl, 1);
  try {
    return (await getEnabledRelease(pool, kind))?.id === releaseId;
  } finally {
    await pool.end();
  }
}

export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'queue an ingest of a source into a new release (--enable: enable it when built, unless its counts fall by more than 10 % from the enabled release; --wait: follow the job)',
  usage: `${ingestKinds.map((k) => `ingest ${k.cli.usage} ${COMMON}`).join(' | ')} | ingest ${ROAD_EVENTS_USAGE}`,
  async run(argv, { config, out }) {
    const given = argv[0];
    const valid = [...kindNames(), 'road-events'];
    const name = given && !given.startsWith('-') ? resolveName(given, valid, KIND_ALIASES) : undefined;
    if (given && !given.startsWith('-') && !name) throw unknownNameError('kind', given, valid);
    // Road events are a live poll, not a release kind: one poll now, in this process.
    if (name === 'road-events') return runRoadEventsIngest(argv.slice(1), { config, out });
    const kind = name ? findKind(name) : undefined;
    if (!kind) throw new CliError(`a kind is required; kinds: ${valid.join(', ')}\nusage: canmap ${this.usage}`, 2);
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
      const outcome = await waitForJob(queue, jobId, view.update, 300, {
        afterMs: NO_WORKER_NOTICE_MS,
        notify: () => {
          view.interrupt();
          out.warn(`warning: no worker is consuming the ${kind.kind} queue, so ${jobId} stays waiting; start one with: canmap worker   (still waiting; Ctrl-C stops waiting, the job stays queued)`);
        },
      }).finally(view.end);
      if (!outcome.ok) {
        if (out.json) out.result({ error: outcome.reason, job: jobId }, '');
        else out.info(`job ${jobId} failed: ${outcome.reason}`);
        return 1;
      }
      const { release, reused } = outcome.result;
      let notEnabled = outcome.result.notEnabled;
      if (payload.enable && !outcome.result.enabled && !notEnabled) notEnabled = await enableBuilt(config, jobId, release);
      const enabled = await isEnabled(config, kind.kind, release);
      const described = `${release}${reused ? ' (existing release, same content)' : ''}${enabled ? ', enabled' : ''}`;
      if (notEnabled) {
        const advice = `  enable it anyway: canmap releases enable ${release} --allow-shrink`;
        out.result({ job: jobId, release, reused, enabled, error: notEnabled }, `${described}\n${notEnabled}\n${advice}`);
        return 1;
      }
      out.result({ job: jobId, release, reused, enabled }, described);
    } finally {
      await queue.close();
      await connection.quit().catch(() => connection.disconnect());
    }
  },
};
