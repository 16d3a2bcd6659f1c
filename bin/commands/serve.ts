import cluster from 'node:cluster';
import { startServer } from '../../api/server.ts';
import { backgroundQueueNames } from '../../jobs/background.ts';
import { parseCommandArgs, rejectExtraArguments } from '../args.ts';
import type { Command } from '../command.ts';
import { CliError } from '../output.ts';
import { primaryStopRequest, superviseApiProcesses, type ReadyMessage } from '../serve-processes.ts';
import { onStopSignal } from '../stop-signal.ts';

const MAX_PROCESSES = 64;

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the API (HOST:PORT) and the admin server (/livez, /readyz, /healthz on ADMIN_PORT) until SIGTERM/SIGINT, then drain and exit; --processes N runs N API processes on the same ports',
  usage: 'serve [--processes N]',
  async run(argv, { config, out }) {
    const { values, positionals } = parseCommandArgs(argv, { processes: { type: 'string', default: '1' } }, this.usage);
    rejectExtraArguments(positionals, 0, this.usage);
    const processes = Number(values.processes);
    if (!Number.isInteger(processes) || processes < 1 || processes > MAX_PROCESSES) {
      throw new CliError(`--processes must be a whole number from 1 to ${MAX_PROCESSES}, got ${values.processes}\nusage: canmap ${this.usage}`, 2);
    }
    if (processes > 1 && cluster.isPrimary) return superviseApiProcesses(processes, out);

    const stop = onStopSignal();
    // Listening before the server starts: a process still starting may be asked to stop.
    const stopRequested = primaryStopRequest();
    // With --json stdout carries only the final document, so the request log goes to stderr.
    const server = await startServer(config, { logger: out.json ? { stream: process.stderr } : true, queueNames: backgroundQueueNames() });
    server.app.log.info({ api: server.url, admin: `${server.adminUrl}/healthz`, releases: server.app.releases.status() }, 'canmap API ready');
    if (cluster.isWorker) process.send!({ type: 'canmap:ready', url: server.url, adminUrl: server.adminUrl } satisfies ReadyMessage);
    const signal = await Promise.race([stop.stopped, stopRequested]);
    server.app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: finishing in-flight requests (send the signal again to stop at once)');
    await server.close();
    stop.dispose();
    if (cluster.isWorker) process.disconnect();
    else out.result({ stopped: true, signal, api: server.url, admin: server.adminUrl }, `canmap API stopped (${signal})`);
  },
};
