import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv('services_down');
});
afterAll(async () => {
  await env.cleanup();
});

describe('commands when a service or port is unavailable', () => {
  it.each([
    [['jobs', '--json']],
    [['ingest', 'transit', '--feeds', 'samples/gtfs/feeds.json', '--wait', '--json']],
  ])('canmap %j exits 1 with one JSON error naming Redis', async (args) => {
    const run = await runCanmap(args, { ...env.env, REDIS_URL: 'redis://127.0.0.1:1' }, 30_000);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ error: expect.stringMatching(/^Redis does not answer at redis:\/\/127\.0\.0\.1:1 \(/) });
  });

  it.each([[['releases', 'list']], [['keys', 'list']], [['usage']]])('canmap %j names PostgreSQL and how to start it when it does not answer', async (args) => {
    const run = await runCanmap(args, { ...env.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/canmap' }, 30_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^canmap ${args[0]}: PostgreSQL does not answer at postgres://postgres@127\\.0\\.0\\.1:1/canmap \\(.*ECONNREFUSED`));
    expect(run.stderr).toContain('start it with: pg_ctlcluster');
  });

  it('names Redis and how to start it, as the JSON error too', async () => {
    const run = await runCanmap(['jobs', '--json'], { ...env.env, REDIS_URL: 'redis://127.0.0.1:1' }, 30_000);
    expect(JSON.parse(run.stdout).error).toContain('start it with: redis-server');
  });

  it('demo stops with the reason when its port is taken, instead of hanging', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = await runCanmap(['demo', '--json'], { ...env.env, PORT: String(port) }, 60_000);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toEqual({ error: expect.stringContaining('EADDRINUSE') });
    } finally {
      blocker.close();
    }
  });
});
