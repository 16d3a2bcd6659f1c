// `node --import tsx test/support/start-workers-once.ts READY_TIMEOUT_MS`: starts the workers with
// the environment's config, prints how that went and, if they started, closes them. It never calls
// process.exit: the process ends only once startWorkers has let go of every connection.
import { ingestKinds } from '../../jobs/kinds/index.ts';
import { startWorkers } from '../../jobs/worker.ts';
import { loadConfig } from '../../lib/config.ts';

const config = loadConfig(process.env);
try {
  const running = await startWorkers(config, { kinds: ingestKinds, readyTimeoutMs: Number(process.argv[2]), log: () => {} });
  console.log('started');
  await running.close();
} catch (err) {
  console.log(`failed: ${(err as Error).message}`);
}
