import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv('demo');
});
afterAll(async () => {
  await env.cleanup();
});

describe('canmap demo', () => {
  it('says which service is down and how to start it', async () => {
    const run = await runCanmap(['demo'], { ...env.env, REDIS_URL: 'redis://127.0.0.1:1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Redis does not answer at redis://127.0.0.1:1');
    expect(run.stderr).toContain('redis-server --daemonize yes');
    expect(run.stderr).not.toContain('PostgreSQL does not answer');
  });
});
