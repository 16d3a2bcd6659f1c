import { readdir } from 'node:fs/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcMonth } from '../../lib/utc-calendar.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { runCanmap, startApiProcess, stopCanmapProcess, type ApiProcess, type CanmapProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let pool: pg.Pool;
const processes: CanmapProcess[] = [];

async function serve(): Promise<ApiProcess> {
  const node = await startApiProcess(env.env, 30_000);
  processes.push(node.proc);
  return node;
}

beforeAll(async () => {
  env = await createTestEnv('metering_process');
  pool = createPool(env.config.databaseUrl);
});

afterAll(async () => {
  for (const proc of processes) await stopCanmapProcess(proc);
  await pool?.end();
  await env?.cleanup();
});

describe('canmap serve: metering across processes and a SIGKILL', () => {
  it('usage equals the answers received per key on the surviving process; the killed one\'s journal is adopted: nothing lost, at most its last turn counted unsent', async () => {
    // Keys 0-3 go to the process that is killed (and its restart), keys 4-7 to the other one.
    const keys = await Promise.all(Array.from({ length: 8 }, (_, i) => createKey(pool, { accountId: `acct-${i % 3}`, plan: 'indie' })));
    const targets = [await serve(), await serve()];
    const received = new Map<string, number>(keys.map((k) => [k.id, 0]));
    const paths = ['/.well-known/api-catalog', '/no/such/path', '/transit/agencies', '/geocode/search'];
    const LOOPS = 16;
    let sent = 0;
    let failed = 0;
    let running = true;

    async function loop(slot: number, worker: number): Promise<void> {
      for (let n = 0; running; n += 1) {
        const key = keys[slot * 4 + ((worker + n) % 4)]!;
        sent += 1;
        try {
          // Headers arriving means the answer left the server, which it only does once journaled.
          const res = await fetch(`${targets[slot]!.api}${paths[n % paths.length]}`, {
            headers: { authorization: `Bearer ${key.key}`, ...(n % 5 === 0 ? { origin: 'http://localhost:3000' } : {}) },
          });
          received.set(key.id, received.get(key.id)! + 1);
          await res.arrayBuffer().catch(() => {});
        } catch {
          failed += 1;
          await new Promise((r) => setTimeout(r, 5));
        }
      }
    }

    const loops = [0, 1].flatMap((slot) => Array.from({ length: LOOPS }, (_, w) => loop(slot, w)));
    await new Promise((r) => setTimeout(r, 1500));
    targets[0]!.proc.child.kill('SIGKILL');
    await targets[0]!.proc.exited;
    await new Promise((r) => setTimeout(r, 300));
    targets[0] = await serve();
    await new Promise((r) => setTimeout(r, 1000));
    running = false;
    await Promise.all(loops);
    // SIGTERM: each process counts what its journal holds before it exits.
    for (const target of targets) {
      target.proc.child.kill('SIGTERM');
      await target.proc.exited;
    }

    const total = [...received.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(500);
    expect(failed).toBeGreaterThan(0);
    const { rows } = await pool.query<{ key_id: string; calls: number }>('SELECT key_id, sum(calls)::int8 AS calls FROM usage_daily GROUP BY key_id');
    const counted = new Map<string, number>(keys.map((k) => [k.id, 0]));
    for (const r of rows) counted.set(r.key_id, r.calls);
    // The surviving process: exact. The killed one: its journal adopted and counted, so nothing it
    // answered is lost; it may have counted answers of its last event-loop turn that it had
    // journaled but not yet written when the kill came (at most the requests in flight, one per
    // client loop). It is exact in most runs; an under-count would be a bug.
    const survivor = keys.slice(4).map((k) => k.id);
    expect(survivor.map((id) => counted.get(id))).toEqual(survivor.map((id) => received.get(id)));
    const over = keys.slice(0, 4).map((k) => counted.get(k.id)! - received.get(k.id)!);
    for (const o of over) expect(o).toBeGreaterThanOrEqual(0);
    const overTotal = over.reduce((a, b) => a + b, 0);
    expect(overTotal).toBeLessThanOrEqual(LOOPS);
    expect(await readdir(env.config.meterJournalDir)).toEqual([]);
    console.log(`metering under SIGKILL: ${sent} sent, ${total} answered, ${failed} cut or refused; surviving process exact; ` +
      `killed process ${overTotal === 0 ? 'exact' : `counted ${overTotal} answered in its last turn but never sent`}`);

    const month = utcMonth(Date.now());
    const cli = await runCanmap(['usage', '--key', keys[4]!.id, '--month', month, '--json'], env.env);
    expect(cli.code).toBe(0);
    const usage = JSON.parse(cli.stdout) as { month: string; totals: { billable: number; dev: number }; rows: { family: string; devCalls: number }[] };
    expect(usage.totals.billable + usage.totals.dev).toBe(received.get(keys[4]!.id));
    expect(usage.totals.dev).toBeGreaterThan(0);
    expect(new Set(usage.rows.map((r) => r.family))).toEqual(new Set(['discovery', 'other', 'transit', 'geocode']));
    const table = await runCanmap(['usage', '--account', 'acct-0', '--month', month], env.env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/dev:transit/);
    expect(table.stdout).toMatch(/billable calls {2}\d+/);
    expect((await runCanmap(['usage', '--month', '2026-13'], env.env)).code).toBe(2);
    // Year 0 is a valid JavaScript date but not a Postgres one: the usage line, never the database's error.
    const yearZero = await runCanmap(['usage', '--month', '0000-01'], env.env);
    expect(yearZero.code).toBe(2);
    expect(yearZero.stderr).toContain('month must be YYYY-MM, got "0000-01"');
    expect(yearZero.stderr).not.toMatch(/out of range/);
  }, 90_000);
});
