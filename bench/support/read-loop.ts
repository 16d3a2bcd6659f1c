/** The in-process ceiling of the serving benchmarks: the same reads the API makes, without HTTP. */

/** Reads `items` in turn, `concurrency` at once, for `seconds`: reads per second. */
export async function readLoop<T>(items: readonly T[], concurrency: number, seconds: number, read: (item: T) => Promise<unknown> | unknown): Promise<number> {
  let done = 0;
  let next = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      await read(items[next++ % items.length]!);
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - started) / 1000);
}
