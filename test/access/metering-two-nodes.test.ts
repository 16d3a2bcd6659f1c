import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, type CreatedKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { startApiProcess, stopCanmapProcess, type ApiProcess, type CanmapProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

/*
 * Two API nodes as two hosts run them: one Postgres database and one Redis prefix, each node its
 * own port and its own METER_JOURNAL_DIR. One node is SIGKILLed while the other keeps answering;
 * usage in Postgres must then equal the answers received, per key, exactly.
 */

let env: TestEnv;
let pool: pg.Pool;
const processes: CanmapProcess[] = [];

type Node = ApiProcess;

async function serve(journalDir: string): Promise<Node> {
  const node = await startApiProcess({ ...env.env, METER_JOURNAL_DIR: journalDir });
  processes.push(node.proc);
  return node;
}

beforeAll(async () => {
  env = await createTestEnv('metering_two_nodes');
  pool = createPool(env.config.databaseUrl);
});

afterAll(async () => {
  for (const proc of processes) await stopCanmapProcess(proc);
  await pool?.end();
  await env?.cleanup();
});

const BILLABLE = '/.well-known/api-catalog';

/** Sends `count` metered requests to a node, `parallel` at a time, each with the next key of `keys`; tallies 200s per key id. */
async function stream(node: Node, keys: readonly CreatedKey[], count: number, parallel: number, received: Map<string, number>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < count) {
      const key = keys[next++ % keys.length]!;
      const res = await fetch(`${node.api}${BILLABLE}`, { headers: { authorization: `Bearer ${key.key}` } });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      received.set(key.id, (received.get(key.id) ?? 0) + 1);
    }
  }));
}

async function countedPerKey(): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ key_id: string; calls: number }>('SELECT key_id, sum(calls)::int AS calls FROM usage_daily GROUP BY key_id');
  return new Map(rows.map((r) => [r.key_id, r.calls]));
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Bytes of each journal file in `dir` that meter_journals has not counted yet. */
async function uncountedBytes(dir: string): Promise<Map<string, number>> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.meter'));
  const { rows } = await pool.query<{ id: string; flushed_bytes: string }>('SELECT id, flushed_bytes FROM meter_journals WHERE id = ANY($1)', [names]);
  const flushed = new Map(rows.map((r) => [r.id, Number(r.flushed_bytes)]));
  const out = new Map<string, number>();
  for (const name of names) out.set(name, (await stat(path.join(dir, name))).size - (flushed.get(name) ?? 0));
  return out;
}

describe('metering with two API nodes and a SIGKILL', () => {
  it('counts every answered request once: the killed node\'s journal is counted when a node starts on its METER_JOURNAL_DIR, never by the other node', async () => {
    const dirA = path.join(env.config.releasesDir, '.meter-node-a');
    const dirB = path.join(env.config.releasesDir, '.meter-node-b');
    // Keys sent to one node only, and a key both nodes answer (its usage rows are shared).
    const [onlyA, onlyB, shared] = await Promise.all([0, 1, 2].map(() => createKey(pool, {})));
    const keysA = [onlyA!, shared!];
    const keysB = [onlyB!, shared!];
    const received = new Map<string, number>();
    let a = await serve(dirA);
    const b = await serve(dirB);

    // Both nodes answer, and flush, as usual.
    await Promise.all([stream(a, keysA, 200, 4, received), stream(b, keysB, 200, 4, received)]);

    // Hold every flush (both nodes') at its first statement: from here on, answers are only in the
    // journals. Node A answers 100 more and is killed with nothing in flight, while B keeps answering.
    const holder = await pool.connect();
    let countedAtLock = new Map<string, number>();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE meter_journals IN EXCLUSIVE MODE');
      const answeredAtLock = new Map(received);
      // No flush commits while the lock is held: this is what Postgres holds until it is released.
      countedAtLock = await countedPerKey();
      expect(countedAtLock.get(onlyA!.id)).toBeLessThanOrEqual(answeredAtLock.get(onlyA!.id)!);
      const streamB = stream(b, keysB, 300, 4, received);
      await stream(a, keysA, 100, 4, received);
      a.proc.child.kill('SIGKILL');
      expect((await a.proc.exited).signal).toBe('SIGKILL');
      await streamB;
      // The killed node's answers since the lock are in its journal, and only there.
      const pendingA = [...(await uncountedBytes(dirA)).values()].reduce((x, y) => x + y, 0);
      expect(pendingA).toBeGreaterThan(0);
      expect(received.get(onlyA!.id)! - answeredAtLock.get(onlyA!.id)!).toBe(50);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }

    // Node B counts all it answered; it never reads A's directory, so A's last answers stay uncounted.
    await waitFor('node B to count its answers', async () => (await countedPerKey()).get(onlyB!.id) === received.get(onlyB!.id));
    await new Promise((r) => setTimeout(r, 1000));
    const beforeRestart = await countedPerKey();
    expect(beforeRestart.get(onlyB!.id)).toBe(received.get(onlyB!.id));
    // Whatever node A had not counted when the flushes were held (its last 50 answers at least) is
    // still uncounted: no other node reads its journal.
    expect(beforeRestart.get(onlyA!.id)).toBe(countedAtLock.get(onlyA!.id));
    expect(beforeRestart.get(onlyA!.id)).toBeLessThanOrEqual(received.get(onlyA!.id)! - 50);
    expect(beforeRestart.get(shared!.id)).toBeLessThan(received.get(shared!.id)!);
    expect((await readdir(dirA)).filter((n) => n.endsWith('.meter')).length).toBeGreaterThan(0);

    // A node started on A's directory adopts the dead process's journal and counts the rest of it.
    a = await serve(dirA);
    await waitFor('the restarted node to count the killed one\'s journal', async () => (await countedPerKey()).get(onlyA!.id) === received.get(onlyA!.id));
    await Promise.all([stream(a, keysA, 100, 4, received), stream(b, keysB, 100, 4, received)]);

    // SIGTERM: each node counts what its journal holds before it exits.
    for (const node of [a, b]) {
      node.proc.child.kill('SIGTERM');
      expect(await node.proc.exited).toEqual({ code: 0, signal: null });
    }
    const counted = await countedPerKey();
    for (const key of [onlyA!, onlyB!, shared!]) expect(counted.get(key.id), key.id).toBe(received.get(key.id));
    const total = [...received.values()].reduce((x, y) => x + y, 0);
    expect(total).toBe(200 + 200 + 100 + 300 + 100 + 100);
    expect([...(await countedPerKey()).values()].reduce((x, y) => x + y, 0)).toBe(total);
    // Every journal file was counted and deleted; none is left to count again.
    expect((await readdir(dirA)).filter((n) => n.endsWith('.meter'))).toEqual([]);
    expect((await readdir(dirB)).filter((n) => n.endsWith('.meter'))).toEqual([]);
  }, 180_000);
});
