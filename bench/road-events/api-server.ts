// Child process of bench/road-events/run.ts: the full API as `canmap serve` runs it, so the load
// generator does not share its event loop. Prints one JSON line {url} once listening.
import { startServer } from '../../api/server.ts';
import { loadConfig } from '../../lib/config.ts';

const server = await startServer(loadConfig(process.env), { logger: false });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
