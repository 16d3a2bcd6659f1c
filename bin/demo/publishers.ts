import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROAD_EVENT_SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../samples/road-events');

/** Which bundled sample answers each stand-in publisher path (query strings are ignored). */
const ROUTES: Record<string, string> = {
  '/open511/events': 'open511-spec-cases.json',
  '/alberta/api/v2/get/event': 'alberta-511-events.json',
  '/ontario/api/v2/get/event': 'ontario-511-events.json',
};

export interface DemoPublishers {
  open511Url: string;
  alberta511Url: string;
  ontario511Url: string;
  close(): Promise<void>;
}

/**
 * A local stand-in for DriveBC and the Alberta/Ontario 511 APIs serving the bundled samples, so
 * the demo's scheduled polls run for real without the internet.
 */
export async function startDemoPublishers(samplesDir: string): Promise<DemoPublishers> {
  const server = createServer((req, res) => {
    const file = ROUTES[new URL(req.url ?? '/', 'http://localhost').pathname];
    if (!file) return void res.writeHead(404).end();
    readFile(path.join(samplesDir, file)).then(
      (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    open511Url: `${base}/open511/events`,
    alberta511Url: `${base}/alberta/api/v2/get/event`,
    ontario511Url: `${base}/ontario/api/v2/get/event`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
