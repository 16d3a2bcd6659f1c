import { startWorkerAdmin, type WorkerAdmin } from '../../jobs/admin-server.ts';
import { backgroundJobs } from '../../jobs/background.ts';
import { createJobLog } from '../../jobs/log.ts';
import { startWorkers } from '../../jobs/worker.ts';
import { parseCommandArgs, rejectExtraArguments } from '../args.ts';
import type { Command } from '../command.ts';
import { onStopSignal } from '../stop-signal.ts';

export const workerCommand: Command = {
  name: 'worker',
  summary: 'run ingest jobs of every kind, the road-event polls and the tiling of uploaded overlays until SIGTERM/SIGINT (then finish the current job and exit); /metrics and /livez on WORKER_ADMIN_PORT',
  usage: 'worker',
  async run(argv, { config, out }) {
    rejectExtraArguments(parseCommandArgs(argv, {}, this.usage).positionals, 0, this.usage);
    // With --json stdout carries only the final document, so the log goes to stderr.
    const log = createJobLog(config.logLevel, (text) => (out.json ? process.stderr : process.stdout).write(text));
    const stop = onStopSignal({
      first: (signal) => log('info', `${signal}: taking no new jobs, finishing running ones (send it again to stop at once)`),
      second: (signal) => log('warn', `${signal} again: stopping now; unfinished jobs are retried once their lock expires`),
    });

    const running = await startWorkers(config, { ...backgroundJobs, log });
    let admin: WorkerAdmin;
    try {
      admin = await startWorkerAdmin(config, running.workers);
    } catch (err) {
      await running.close();
      throw err;
    }
    log('info', `worker admin server on ${admin.url} (GET /metrics, /livez)`);
    const signal = await stop.stopped;
    await running.close();
    await admin.close();
    stop.dispose();
    log('info', 'worker stopped');
    out.result({ stopped: true, signal }, 'worker stopped');
  },
};
