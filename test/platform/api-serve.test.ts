import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCanmap, sigtermWithHeldUpload, startCanmapProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';

const CANMAP = repoPath('bin/canmap.js');
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv('api_serve');
});
afterAll(async () => {
  await env?.cleanup();
});

describe('canmap serve', () => {
  it('serves with a key made by canmap keys, answers /healthz, and exits 0 on SIGTERM', async () => {
    const created = await runCanmap(['keys', 'create', '--json'], env.env);
    expect(created.code).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };

    const child = spawn(process.execPath, [CANMAP, 'serve'], { env: { ...process.env, ...env.env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      const deadline = Date.now() + 30_000;
      while (!output.includes('canmap API ready')) {
        if (child.exitCode !== null) throw new Error(`serve exited early:\n${output}`);
        if (Date.now() > deadline) throw new Error(`serve did not get ready:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const ready = output.split('\n').map((l) => { try { return JSON.parse(l); } catch { return null; } })
        .find((l) => l?.msg === 'canmap API ready') as { api: string; admin: string };
      expect(ready.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      expect((await fetch(`${ready.api}/.well-known/api-catalog`)).status).toBe(401);
      const ok = await fetch(`${ready.api}/.well-known/api-catalog?key=${key}`);
      expect(ok.status).toBe(200);
      const health = await fetch(ready.admin);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ postgres: true });
      expect(output).not.toContain(key);

      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(output).toContain('canmap API stopped (SIGTERM)');
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  });

  it('exits within SHUTDOWN_GRACE_SECONDS of SIGTERM while a client holds an upload open', async () => {
    const created = await runCanmap(['keys', 'create', '--json'], env.env);
    const { key } = JSON.parse(created.stdout) as { key: string };
    // The body timeout is far away: only the shutdown grace (2 s) can end the held upload.
    const proc = await startCanmapProcess(['serve'], { ...env.env, SHUTDOWN_GRACE_SECONDS: '2', BODY_IDLE_TIMEOUT_SECONDS: '600' }, /canmap API ready/, 30_000);
    try {
      const ready = proc.output().split('\n').map((l) => { try { return JSON.parse(l); } catch { return null; } })
        .find((l) => l?.msg === 'canmap API ready') as { api: string };
      const { exit, afterMs, heldClosed } = await sigtermWithHeldUpload(proc, ready.api, key);
      expect(exit).toEqual({ code: 0, signal: null });
      // 2 s of grace, then the process closes the connection and stops: well under the 20 s waited.
      expect(afterMs).toBeLessThan(10_000);
      expect(heldClosed).toBe(true);
      expect(proc.output()).toContain('shutdown grace over: closing the connections still open');
      expect(proc.output()).toContain('canmap API stopped (SIGTERM)');
    } finally {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited;
      }
    }
  });
});
