import { configuredHttp } from '../../ingest/road-events/http-json.ts';
import { pollRoadEvents, type PollOutcome } from '../../ingest/road-events/poll.ts';
import { createJobLog } from '../../jobs/log.ts';
import { createPool } from '../../lib/postgres.ts';
import { parseCommandArgs } from '../args.ts';
import type { CommandContext } from '../command.ts';
import { CliError } from '../output.ts';

export const ROAD_EVENTS_USAGE = 'road-events --once [--url URL]';

function humanReport(o: PollOutcome): string {
  const lines: string[] = [];
  const dropped = o.dropped.length ? `, ${o.dropped.length} dropped as invalid` : '';
  if (o.outcome === 'changed' || o.outcome === 'unchanged') {
    lines.push(`${o.jurisdiction}: ${o.events} events from ${o.pages} page(s): ${o.added.length} added, ${o.updated.length} updated, ${o.removed.length} removed, ${o.unchanged} unchanged${dropped}`);
    if (o.message) lines.push(`  note     ${o.message}`);
    for (const [label, ids] of [['added', o.added], ['updated', o.updated], ['removed', o.removed]] as const) {
      for (const id of ids) lines.push(`  ${label.padEnd(8)} ${id}`);
    }
  } else {
    lines.push(`${o.jurisdiction}: ${o.outcome}: ${o.message}${dropped}; the stored ${o.events} events are unchanged`);
  }
  for (const d of o.dropped) lines.push(`  dropped  event ${d.index}${d.sourceId ? ` ${d.sourceId}` : ''}: ${d.reason}`);
  return lines.join('\n');
}

/**
 * `canmap ingest road-events --once [--url URL]`: one DriveBC Open511 poll now, in this process
 * (no queue), printing what changed. Exit 1 when the poll failed, was refused or skipped.
 */
export async function runRoadEventsIngest(argv: string[], { config, out }: CommandContext): Promise<number> {
  const usage = `ingest ${ROAD_EVENTS_USAGE}`;
  const { values, positionals } = parseCommandArgs(argv, { once: { type: 'boolean' }, url: { type: 'string' } }, usage);
  if (positionals.length) throw new CliError(`unexpected argument ${JSON.stringify(positionals[0])}\nusage: canmap ${usage}`, 2);
  if (!values.once) {
    throw new CliError(`road events are polled by \`canmap worker\` every ROAD_EVENTS_POLL_SECONDS; --once polls now\nusage: canmap ${usage}`, 2);
  }
  const url = values.url ?? config.open511Url;
  if (!/^https?:\/\//.test(url) || !URL.canParse(url)) throw new CliError(`--url must be an http(s) URL, got ${JSON.stringify(url)}\nusage: canmap ${usage}`, 2);

  const log = createJobLog(config.logLevel, (text) => process.stderr.write(text));
  const pool = createPool(config.databaseUrl, 2);
  try {
    const outcome = await pollRoadEvents(pool, { url, http: configuredHttp(config), log: out.json ? () => {} : log });
    out.result(outcome, () => humanReport(outcome));
    return outcome.outcome === 'changed' || outcome.outcome === 'unchanged' ? 0 : 1;
  } finally {
    await pool.end();
  }
}
