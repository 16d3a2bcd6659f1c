import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../../lib/ts-worker.ts';

// The upload checker's entry: it imports TypeScript and then waits for messages, doing nothing.
const ENTRY = new URL('../../engines/byod/upload-check-worker.ts', import.meta.url);

/** Nice values of this process's threads, by thread id (Linux /proc). */
function threadNices(): Map<string, number> {
  const nices = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    nices.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nices;
}

async function online(worker: Worker): Promise<void> {
  await new Promise((resolve, reject) => worker.once('online', resolve).once('error', reject));
  // The bootstrap lowers the priority before it imports the entry: give it that long.
  await new Promise((resolve) => setTimeout(resolve, 500));
}

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

describe('startTsWorker', () => {
  it('runs a TypeScript entry on a thread whose priority is lowered to the nice value, leaving the event loop thread as it was', async () => {
    const before = threadNices();
    worker = startTsWorker(ENTRY, { nice: 10 });
    await online(worker);
    const after = threadNices();
    const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice === 10);
    expect(lowered.length).toBeGreaterThan(0);
    expect(after.get(String(process.pid))).toBe(before.get(String(process.pid)));
  });

  it('without nice, the thread keeps the process priority', async () => {
    const before = threadNices();
    worker = startTsWorker(ENTRY);
    await online(worker);
    const added = [...threadNices()].filter(([tid]) => !before.has(tid));
    expect(added.length).toBeGreaterThan(0);
    expect(added.every(([, nice]) => nice === before.get(String(process.pid)))).toBe(true);
  });
});
