import { startServer } from '../../api/server.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { onStopSignal } from '../stop-signal.ts';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the API (HOST:PORT) and the admin /healthz (ADMIN_PORT) until SIGTERM/SIGINT, then drain and exit',
  usage: 'serve',
  async run(argv, { config, out }) {
    parseCommandArgs(argv, {}, this.usage);
    const stop = onStopSignal();

    // With --json stdout carries only the final document, so the request log goes to stderr.
    const server = await startServer(config, { logger: out.json ? { stream: process.stderr } : true });
    server.app.log.info({ api: server.url, admin: `${server.adminUrl}/healthz`, releases: server.app.releases.status() }, 'canmap API ready');
    const signal = await stop.stopped;
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests (send the signal again to stop at once)');
    await server.close();
    stop.dispose();
    out.result({ stopped: true, signal, api: server.url, admin: server.adminUrl }, `canmap API stopped (${signal})`);
  },
};
