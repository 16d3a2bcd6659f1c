import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'bullmq';
import type { Config } from '../lib/config.ts';
import { createApiRedis } from '../lib/redis.ts';
import { createWorkerMetrics } from './metrics.ts';

export interface WorkerAdmin {
  /** Where it listens (the real port when WORKER_ADMIN_PORT is 0). */
  url: string;
  close(): Promise<void>;
}

/**
 * `canmap worker`'s operators' server on ADMIN_HOST:WORKER_ADMIN_PORT, no key: GET /livez (200
 * while the process runs) and GET /metrics (jobs/metrics.ts). Its Redis connection fails commands
 * at once rather than queueing them, so a scrape answers even while Redis is down.
 */
export async function startWorkerAdmin(config: Config, workers: Worker[]): Promise<WorkerAdmin> {
  const connection = createApiRedis(config.redisUrl, { commandTimeoutMs: 1000 });
  const metrics = createWorkerMetrics({ workers, connection, redisPrefix: config.redisPrefix });
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    if (path === '/livez') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"live"}');
    if (path !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err.message}`),
    );
  });
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await metrics.close();
    connection.disconnect();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.workerAdminPort, config.adminHost, () => resolve());
    });
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
  const { address, port, family } = server.address() as AddressInfo;
  return { url: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`, close };
}
