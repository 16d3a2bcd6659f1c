import { ingestKinds } from '../../jobs/kinds/index.ts';
import { createJobLog } from '../../jobs/log.ts';
import { scheduledJobs } from '../../jobs/schedules/index.ts';
import { startWorkers } from '../../jobs/worker.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { onStopSignal } from '../stop-signal.ts';

export const workerCommand: Command = {
  name: 'worker',
  summary: 'run ingest jobs of every kind, the road-event polls and the tiling of uploaded overlays until SIGTERM/SIGINT (then finish the current job and exit)',
  usage: 'worker',
  async run(argv, { config, out }) {
    parseCommandArgs(argv, {}, this.usage);
    // With --json stdout carries only the final document, so the log goes to stderr.
    const log = createJobLog(config.logLevel, (text) => (out.json ? process.stderr : process.stdout).write(text));
    const stop = onStopSignal({
      first: (signal) => log('info', `${signal}: taking no new jobs, finishing running ones (send it again to stop at once)`),
      second: (signal) => log('warn', `${signal} again: stopping now; unfinished jobs are retried once their lock expires`),
    });

    const running = await startWorkers(config, { kinds: ingestKinds, schedules: scheduledJobs, byodTiling: true, log });
    const signal = await stop.stopped;
    await running.close();
    stop.dispose();
    log('info', 'worker stopped');
    out.result({ stopped: true, signal }, 'worker stopped');
  },
};
