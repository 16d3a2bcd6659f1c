import { ingestKinds } from '../../jobs/kinds/index.ts';
import { createJobLog } from '../../jobs/log.ts';
import { startWorkers } from '../../jobs/worker.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command } from '../command.ts';

const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

export const workerCommand: Command = {
  name: 'worker',
  summary: 'run ingest jobs of every kind until SIGTERM/SIGINT (then finish the current job and exit)',
  usage: 'worker',
  async run(argv, { config, out }) {
    parseCommandArgs(argv, {}, this.usage);
    // With --json stdout carries only the final document, so the log goes to stderr.
    const log = createJobLog(config.logLevel, (text) => (out.json ? process.stderr : process.stdout).write(text));
    let stop!: (signal: NodeJS.Signals) => void;
    const stopped = new Promise<NodeJS.Signals>((resolve) => (stop = resolve));
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (!stopping) {
        stopping = true;
        log('info', `${signal}: taking no new jobs, finishing running ones (send it again to stop at once)`);
        return stop(signal);
      }
      log('warn', `${signal} again: stopping now; unfinished jobs are retried once their lock expires`);
      process.exit(SIGNAL_EXIT[signal] ?? 1);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);

    const running = await startWorkers(config, { kinds: ingestKinds, log });
    const signal = await stopped;
    await running.close();
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    log('info', 'worker stopped');
    out.result({ stopped: true, signal }, 'worker stopped');
  },
};
