/**
 * The cheap-request probe of the event-loop benchmark: one GET every `everyMs`, open loop (each
 * sent on time whether or not the previous one answered), each delay measured from the moment it
 * was due to its answer, so a server that stops answering for N seconds shows a delay of N seconds.
 */

export interface ProbeResult {
  sent: number;
  answered: number;
  /** Not sent because `maxOutstanding` were already waiting (their own delays still count). */
  skipped: number;
  /** Still waiting `graceMs` after stop(): abandoned, their delay counted up to then. */
  unanswered: number;
  worstMs: number;
  p99Ms: number;
  p50Ms: number;
  statuses: Record<string, number>;
}

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

export interface Probe {
  stop(): Promise<ProbeResult>;
}

export function startProbe(url: string, headers: Record<string, string>, everyMs: number, maxOutstanding = 300, graceMs = 2000): Probe {
  const delays: number[] = [];
  const statuses: Record<string, number> = {};
  const pending = new Set<Promise<void>>();
  let sent = 0;
  let skipped = 0;
  let stopped = false;
  let unanswered = 0;
  const abandon = new AbortController();
  const started = performance.now();
  const fire = (due: number) => {
    if (pending.size >= maxOutstanding) {
      skipped++;
      return;
    }
    sent++;
    const p = (async () => {
      try {
        const res = await fetch(url, { headers, signal: abandon.signal });
        await res.arrayBuffer();
        delays.push(performance.now() - due);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      } catch (err) {
        delays.push(performance.now() - due);
        if (abandon.signal.aborted) unanswered++;
        else statuses[(err as Error).name] = (statuses[(err as Error).name] ?? 0) + 1;
      }
    })();
    pending.add(p);
    void p.then(() => pending.delete(p));
  };
  let k = 0;
  // A chain of timers aimed at each due time (a late timer still fires the missed probes at once).
  const tick = () => {
    if (stopped) return;
    const now = performance.now();
    while (started + k * everyMs <= now) fire(started + everyMs * k++);
    setTimeout(tick, Math.max(0, started + k * everyMs - performance.now()));
  };
  tick();
  return {
    async stop() {
      stopped = true;
      const grace = setTimeout(() => abandon.abort(), graceMs);
      await Promise.all(pending);
      clearTimeout(grace);
      const sorted = [...delays].sort((a, b) => a - b);
      return {
        sent, answered: delays.length - unanswered, skipped, unanswered,
        worstMs: sorted.length ? sorted[sorted.length - 1]! : NaN,
        p99Ms: percentile(sorted, 99),
        p50Ms: percentile(sorted, 50),
        statuses,
      };
    },
  };
}
