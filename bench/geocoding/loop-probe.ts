/**
 * Preloaded into the benchmark's worker (`node --import <this>`): records each stretch of more
 * than a second during which the event loop was blocked (when it ended, how long) and writes the
 * longest ones to $BENCH_LOOP_PROBE_FILE every 2 s and at exit. A build step that holds the loop
 * longer than JOB_LOCK_SECONDS keeps BullMQ from renewing the job's lock, and the job is then
 * taken for stalled.
 */
import { writeFileSync } from 'node:fs';

export interface LoopBlock {
  /** Date.now() when the loop got going again. */
  endedAt: number;
  ms: number;
}

const file = process.env.BENCH_LOOP_PROBE_FILE;
if (file) {
  const TICK_MS = 100;
  const blocks: LoopBlock[] = [];
  let last = Date.now();
  setInterval(() => {
    const now = Date.now();
    const gap = now - last - TICK_MS;
    last = now;
    if (gap > 1000) {
      blocks.push({ endedAt: now, ms: gap });
      blocks.sort((a, b) => b.ms - a.ms);
      blocks.length = Math.min(blocks.length, 20);
    }
  }, TICK_MS).unref();
  const write = () => writeFileSync(file, JSON.stringify(blocks));
  setInterval(write, 2000).unref();
  process.on('exit', write);
}
