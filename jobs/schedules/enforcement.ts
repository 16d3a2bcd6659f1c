import { runEnforcement } from '../../io/access/enforcement-run.ts';
import { pruneBilled } from '../../io/access/optimization-billed.ts';
import type { ScheduledJob } from './scheduled-job.ts';

/**
 * Plan enforcement (volume 3) every ENFORCEMENT_INTERVAL_SECONDS: blocks and lifts accounts from
 * this month's metered calls, and forgets optimization shipments whose 24-hour free window has
 * ended. `now` is the clock of the run (tests pass their own).
 */
export function enforcementJob(now: () => Date = () => new Date()): ScheduledJob {
  return {
    name: 'enforcement',
    everyMs: (config) => config.enforcementIntervalMs,
    async run({ pool, log }) {
      const at = now();
      const { accounts, changes } = await runEnforcement(pool, { now: at, log: (line) => log('info', line) });
      const ended = await pruneBilled(pool, at);
      return `${accounts} accounts, ${changes.length} changed${ended > 0 ? `, ${ended} optimization billing windows ended` : ''}`;
    },
  };
}

export const enforcementSchedule = enforcementJob();
