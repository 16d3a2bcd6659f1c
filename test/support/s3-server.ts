import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
// s3rver has no type declarations.
// @ts-expect-error untyped CommonJS module
import S3rver from 's3rver';

/** s3rver's built-in account: the credentials a test gives the SDK (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY). */
export const S3_TEST_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

export interface TestS3Server {
  /** The endpoint clients use (through a relay that can be cut): S3_ENDPOINT. */
  endpoint: string;
  bucket: string;
  /** RELEASE_STORE for a prefix of this bucket. */
  storeUrl(prefix: string): string;
  /** Environment of a canmap process using this store. */
  env(prefix: string): Record<string, string>;
  /** From now on a connection is dropped once more than `bytes` bytes have passed through it (either way); null: never. */
  cutAfter(bytes: number | null): void;
  /** From now on a connection stops carrying bytes (but stays open) once more than `bytes` have passed; null: never. */
  stallAfter(bytes: number | null): void;
  /** Drops every connection and stops listening: the store looks down. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver, files in a temp dir) on 127.0.0.1 with one bucket, behind a relay. */
export async function startS3Server(bucket = 'canmap-releases'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'canmap-s3rver-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port: s3Port } = (await s3.run()) as { port: number };

  const sockets = new Set<Socket>();
  let limit: number | null = null;
  let stallLimit: number | null = null;
  const relay = () => createServer((client) => {
    const upstream = connect(s3Port, '127.0.0.1');
    let passed = 0;
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(a);
      a.on('error', () => {});
      a.on('close', () => { sockets.delete(a); b.destroy(); });
      a.on('data', (chunk: Buffer) => {
        passed += chunk.length;
        if (limit !== null && passed > limit) {
          a.destroy();
          b.destroy();
          return;
        }
        if (stallLimit !== null && passed > stallLimit) return; // swallowed: the peer waits for bytes that never come
        b.write(chunk);
      });
      a.on('end', () => b.end());
    }
  });
  const listen = (s: Server, p: number) => new Promise<void>((resolve) => s.listen(p, '127.0.0.1', resolve));
  let server = relay();
  await listen(server, 0);
  const { port } = server.address() as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const down = async () => {
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    endpoint,
    bucket,
    storeUrl: (prefix) => `s3://${bucket}/${prefix}`,
    env: (prefix) => ({ ...S3_TEST_CREDENTIALS, RELEASE_STORE: `s3://${bucket}/${prefix}`, S3_ENDPOINT: endpoint }),
    cutAfter(bytes) {
      limit = bytes;
    },
    stallAfter(bytes) {
      stallLimit = bytes;
    },
    down,
    async up() {
      if (server.listening) return;
      server = relay();
      await listen(server, port);
    },
    async close() {
      if (server.listening) await down();
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
