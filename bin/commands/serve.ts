import { startServer } from '../../api/server.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command } from '../command.ts';

const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the API (HOST:PORT) and the admin /healthz (ADMIN_PORT) until SIGTERM/SIGINT, then drain and exit',
  usage: 'serve',
  async run(argv, { config, out }) {
    parseCommandArgs(argv, {}, this.usage);
    let stop!: (signal: NodeJS.Signals) => void;
    const stopped = new Promise<NodeJS.Signals>((resolve) => (stop = resolve));
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (!stopping) {
        stopping = true;
        return stop(signal);
      }
      process.exit(SIGNAL_EXIT[signal] ?? 1);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);

    // With --json stdout carries only the final document, so the request log goes to stderr.
    const server = await startServer(config, { logger: out.json ? { stream: process.stderr } : true });
    server.app.log.info({ api: server.url, admin: `${server.adminUrl}/healthz`, releases: server.app.releases.status() }, 'canmap API ready');
    const signal = await stopped;
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests (send the signal again to stop at once)');
    await server.close();
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    out.result({ stopped: true, signal, api: server.url, admin: server.adminUrl }, `canmap API stopped (${signal})`);
  },
};
