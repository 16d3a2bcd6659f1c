import { runEnforcement } from '../../engines/access/enforcement-run.ts';
import type { ScheduledJob } from './scheduled-job.ts';

/**
 * Plan enforcement (volume 3) every ENFORCEMENT_INTERVAL_SECONDS: blocks and lifts accounts from
 * this month's metered calls. `now` is the clock of the run (tests pass their own).
 */
export function enforcementJob(now: () => Date = () => new Date()): ScheduledJob {
  return {
    name: 'enforcement',
    everyMs: (config) => config.enforcementIntervalMs,
    async run({ pool, log }) {
      const { accounts, changes } = await runEnforcement(pool, { now: now(), log: (line) => log('info', line) });
      return `${accounts} accounts, ${changes.length} changed`;
    },
  };
}

export const enforcementSchedule = enforcementJob();
