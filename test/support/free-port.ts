import { once } from 'node:events';
import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}
