/** Child processes of the geocoding benchmark: `canmap <command>` started with node flags, and their memory. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { processCpuSeconds } from './process-cpu.ts';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/support/free-port.ts';

export { freePort };

export const CANMAP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/canmap.js');
export const GB = 1024 ** 3;

/** VmRSS and VmHWM (peak RSS so far) of a live process, bytes; zeros once it is gone. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** The process and its descendants (the worker forks the geocoding build). */
function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...children.flatMap(processTree)];
  } catch {
    return [pid];
  }
}

/** CPU seconds of a process and its descendants (`canmap serve --processes N` forks its API processes). */
export function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + processCpuSeconds(p), 0);
}

/** Summed RSS of a process tree and the highest VmHWM of any process in it. */
export function treeMemoryOf(pid: number): { rss: number; hwm: number } {
  let rss = 0;
  let hwm = 0;
  for (const p of processTree(pid)) {
    const m = memoryOf(p);
    rss += m.rss;
    hwm = Math.max(hwm, m.hwm);
  }
  return { rss, hwm };
}

/**
 * Samples a process tree's RSS every `everyMs` (VmHWM besides, which the kernel keeps exact between
 * samples), tagging each sample with the phase the caller says the process is in.
 */
export class RssSampler {
  peak = 0;
  /** Highest RSS seen per phase label, in order of first appearance. */
  readonly byPhase = new Map<string, number>();
  private phase = 'start';
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number, everyMs = 200) {
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  setPhase(label: string): void {
    this.sample();
    this.phase = label;
  }

  sample(): { rss: number; hwm: number } {
    const m = treeMemoryOf(this.pid);
    if (m.rss === 0) return m;
    this.peak = Math.max(this.peak, m.hwm, m.rss);
    this.byPhase.set(this.phase, Math.max(this.byPhase.get(this.phase) ?? 0, m.rss));
    return m;
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }
}

export interface CanmapChild {
  child: ChildProcess;
  /** Resolves with each line the process prints (stdout and stderr), as it prints it. */
  onLine(fn: (line: string) => void): void;
  /** Everything printed so far (stdout and stderr lines, the last few thousand). */
  output(): string;
  /** Everything printed on stdout (with --json: the one document). */
  stdout(): string;
  stop(): Promise<void>;
}

/** `node [nodeArgs] bin/canmap.js ...args` with the benchmark's environment. */
export function startCanmap(args: string[], env: Record<string, string>, nodeArgs: string[] = []): CanmapChild {
  const child = spawn(process.execPath, [...nodeArgs, CANMAP, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const listeners: ((line: string) => void)[] = [];
  const lines: string[] = [];
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => {
    if (stdout.length < 1 << 20) stdout += d.toString();
  });
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      if (lines.length > 5000) lines.splice(0, 1000);
      for (const fn of listeners) fn(line);
    });
  }
  const exited = once(child, 'close');
  return {
    child,
    onLine: (fn) => listeners.push(fn),
    output: () => lines.join('\n'),
    stdout: () => stdout,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

