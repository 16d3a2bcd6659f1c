/** This process's peak RSS (VmHWM), bytes, for build workers to report beside GNU time's figure. */
import { readFile } from 'node:fs/promises';

export async function selfPeakRssBytes(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return kb ? kb * 1024 : process.resourceUsage().maxRSS * 1024;
}
