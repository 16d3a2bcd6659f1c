import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  /** The relay's port on 127.0.0.1 (the same after a restore). */
  port: number;
  /** Drops every connection and closes the port: the service looks down. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP relay to `host:port` (a test's Postgres or Redis) that can be cut and restored, to play an outage. */
export async function tcpRelay(host: string, targetPort: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  const relay = () => createServer((client) => {
    const upstream = connect(targetPort, host);
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(a);
      a.on('error', () => {});
      a.on('close', () => { sockets.delete(a); b.destroy(); });
      a.pipe(b);
    }
  });
  const listen = (s: Server, p: number) => new Promise<void>((resolve) => s.listen(p, '127.0.0.1', resolve));
  let server = relay();
  await listen(server, 0);
  const { port } = server.address() as { port: number };
  const cut = async () => {
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    cut,
    async restore() {
      server = relay();
      await listen(server, port);
    },
    async close() {
      if (server.listening) await cut();
      for (const socket of sockets) socket.destroy();
    },
  };
}
