/**
 * The event loop's worst stall while `work` runs: a timer ticks every `everyMs` and the longest gap
 * between two ticks (or from the last tick to the end) beyond the period is the stall, in ms.
 */
export async function worstLoopStall<T>(work: () => Promise<T>, everyMs = 10): Promise<{ result: T; worst: number }> {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - everyMs);
    last = now;
  }, everyMs);
  try {
    const result = await work();
    return { result, worst: Math.max(worst, performance.now() - last - everyMs) };
  } finally {
    clearInterval(timer);
  }
}
