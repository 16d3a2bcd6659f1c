import { percent } from '../../jobs/progress.ts';
import { connectRedis } from '../../lib/redis.ts';
import { kindNames } from '../../jobs/kinds/index.ts';
import { listJobs, type JobSummary } from '../../jobs/list.ts';
import { openQueue } from '../../jobs/queues.ts';
import { parseCommandArgs, rejectExtraArguments } from '../args.ts';
import { KIND_ALIASES, resolveName, unknownNameError } from '../names.ts';
import type { Command } from '../command.ts';
import { CliError, table } from '../output.ts';

function outcome(j: JobSummary): string | null {
  if (j.release) return `${j.release}${j.reused ? ' (reused)' : ''}`;
  return j.failedReason;
}

export const jobsCommand: Command = {
  name: 'jobs',
  summary: 'recent ingest jobs of every state, newest first',
  usage: 'jobs [--kind K] [--limit N]',
  async run(argv, { config, out }) {
    const { values, positionals } = parseCommandArgs(argv, { kind: { type: 'string' }, limit: { type: 'string', default: '20' } }, this.usage);
    rejectExtraArguments(positionals, 0, this.usage);
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new CliError(`--limit must be an integer from 1 to 1000, got ${values.limit}`, 2);
    const kind = values.kind === undefined ? undefined : resolveName(values.kind, kindNames(), KIND_ALIASES);
    if (values.kind !== undefined && !kind) throw unknownNameError('kind', values.kind, kindNames());
    const kinds = kind ? [kind] : kindNames();

    const connection = await connectRedis(config.redisUrl);
    const queues = new Map(kinds.map((k) => [k, openQueue(config, k, connection)]));
    try {
      const jobs = await listJobs(queues, limit);
      out.result(jobs, () =>
        table(
          ['id', 'kind', 'state', 'progress', 'attempts', 'created', 'finished', 'release / reason'],
          jobs.map((j) => [
            j.id, j.kind, j.state,
            j.progress ? percent(j.progress.fraction) : null,
            `${j.attemptsStarted}/${j.maxAttempts}`,
            j.createdAt, j.finishedAt, outcome(j),
          ]),
        ),
      );
    } finally {
      await Promise.all([...queues.values()].map((q) => q.close()));
      await connection.quit().catch(() => connection.disconnect());
    }
  },
};
