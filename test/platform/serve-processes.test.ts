import { readdir } from 'node:fs/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { runCanmap, sigtermWithHeldUpload, startCanmapProcess, type CanmapProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { sampleValue, scrape } from '../support/prometheus-text.ts';

let env: TestEnv;
let pool: pg.Pool;
let proc: CanmapProcess | undefined;

beforeAll(async () => {
  // A short shutdown grace, and a body timeout that cannot end a held upload before it does.
  env = await createTestEnv('serve_processes', { SHUTDOWN_GRACE_SECONDS: '2', BODY_IDLE_TIMEOUT_SECONDS: '600' });
  pool = createPool(env.config.databaseUrl);
});

afterAll(async () => {
  if (proc && proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
  await proc?.exited;
  await pool?.end();
  await env?.cleanup();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('canmap serve --processes N', () => {
  it('refuses a count that is not a whole number from 1 to 64', async () => {
    for (const bad of ['0', '1.5', 'two', '65']) {
      const run = await runCanmap(['serve', '--processes', bad], env.env);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--processes must be a whole number from 1 to 64, got ${bad}`);
    }
  });

  it('answers from every process on one port, replaces a process that dies, and drains them all on SIGTERM', async () => {
    proc = await startCanmapProcess(['serve', '--processes', '2'], env.env, /canmap API ready: 2 processes/, 60_000);
    const [, pids, api, admin] = /canmap API ready: 2 processes \(([\d, ]+)\) at (\S+), admin (\S+)/.exec(proc.output())!;
    const workers = pids!.split(', ').map(Number);
    expect(workers).toHaveLength(2);
    const { key } = await createKey(pool, {});
    const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(`${api}/.well-known/api-catalog`, { headers: { authorization: `Bearer ${key}` } })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await fetch(admin!)).status).toBe(200);
    // A scrape reaches one process and answers for both: the primary merges every process's metrics.
    const adminBase = admin!.replace(/\/healthz$/, '');
    for (let i = 0; i < 4; i++) {
      const { samples } = await scrape(adminBase);
      const served = sampleValue(samples, 'canmap_http_request_duration_seconds_count', { method: 'GET', route: '/.well-known/api-catalog', status_code: '200' });
      expect(served).toBe(40);
    }
    // Each process journals its own answers: with load spread over both, both wrote a journal file.
    const journals = (await readdir(env.config.meterJournalDir)).filter((f) => !f.startsWith('.'));
    expect(journals.length).toBeGreaterThanOrEqual(2);

    process.kill(workers[0]!, 'SIGKILL');
    await proc.waitForOutput(new RegExp(`API process ${workers[0]} exited \\(SIGKILL\\); starting a replacement`));
    await proc.waitForOutput(/API process \d+ ready/, 30_000);
    expect((await fetch(`${api}/.well-known/api-catalog`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

    // A client holding an upload open does not keep the processes alive past the grace.
    const { exit, afterMs, heldClosed } = await sigtermWithHeldUpload(proc, api!, key);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(afterMs).toBeLessThan(10_000);
    expect(heldClosed).toBe(true);
    expect(proc.output()).toContain('canmap API stopped (SIGTERM): 2 processes drained');
    expect(workers.filter(alive)).toEqual([]);
  }, 120_000);
});
