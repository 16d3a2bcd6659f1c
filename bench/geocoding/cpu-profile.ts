/** Where a process's CPU time went, from the .cpuprofile `node --cpu-prof` writes at exit. */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

const ROOT = `${new URL('../../', import.meta.url).pathname}`;

/** The `top` functions by self time, as a table: share of samples, ms, function, file:line. */
export function summarizeCpuProfile(profile: CpuProfile, top: number): string {
  const totalHits = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
  const msPerHit = (profile.endTime - profile.startTime) / 1000 / Math.max(1, totalHits);
  const byFunction = new Map<string, number>();
  let idle = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') idle += functionName === '(idle)' ? hits : 0;
    // tsx hands V8 whitespace-minified code, so line 1 says nothing: the file alone then.
    const where = url ? `${url.replace(/^file:\/\//, '').replace(ROOT, '')}${lineNumber > 0 ? `:${lineNumber + 1}` : ''}` : '';
    const key = `${functionName || '(anonymous)'}  ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  }
  const busy = totalHits - idle;
  const rows = [...byFunction].filter(([key]) => !key.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `  ${(busy * msPerHit / 1000).toFixed(1)} s busy of ${(totalHits * msPerHit / 1000).toFixed(1)} s; % of busy time, self ms, function, file`,
    ...rows.map(([key, hits]) => `  ${((100 * hits) / Math.max(1, busy)).toFixed(1).padStart(5)}%${(hits * msPerHit).toFixed(0).padStart(8)}  ${key}`),
  ].join('\n');
}
