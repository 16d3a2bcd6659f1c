/**
 * Runs one command in its own process group and measures it the same way whoever it is: wall
 * seconds from spawn to exit, peak RSS from GNU time's "Maximum resident set size" when
 * /usr/bin/time is there (the child's exact high-water mark), else from polling its VmHWM, and
 * CPU seconds (user + system, all threads) from GNU time (null without it).
 */
import { spawn } from 'node:child_process';
import { access, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Measured {
  seconds: number;
  peakRssBytes: number;
  /** User + system CPU seconds of the process and the children it waited for; null without GNU time. */
  cpuSeconds: number | null;
  code: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

const GNU_TIME = '/usr/bin/time';

async function vmHwm(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

export async function runMeasured(command: string, args: string[], options: { timeoutMs: number; echoStderr?: boolean; cwd?: string }): Promise<Measured> {
  const hasTime = await access(GNU_TIME).then(() => true, () => false);
  const timeFile = path.join(os.tmpdir(), `canmap-bench-time-${process.pid}-${Date.now()}.txt`);
  const [file, argv] = hasTime ? [GNU_TIME, ['-v', '-o', timeFile, command, ...args]] : [command, args];
  const started = performance.now();
  const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(options.cwd ? { cwd: options.cwd } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    if (options.echoStderr) process.stderr.write(d);
  });
  let polled = 0;
  const poll = hasTime ? null : setInterval(async () => (polled = Math.max(polled, await vmHwm(child.pid!))), 200);
  let timedOut = false;
  const killer = setTimeout(() => {
    timedOut = true;
    process.kill(-child.pid!, 'SIGKILL');
  }, options.timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - started) / 1000;
  clearTimeout(killer);
  if (poll) clearInterval(poll);
  let peakRssBytes = polled;
  let cpuSeconds: number | null = null;
  if (hasTime) {
    const report = await readFile(timeFile, 'utf8').catch(() => '');
    peakRssBytes = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(report)?.[1] ?? 0) * 1024;
    const cpu = (label: string) => Number(new RegExp(`${label} time \\(seconds\\): ([\\d.]+)`).exec(report)?.[1] ?? NaN);
    const total = cpu('User') + cpu('System');
    cpuSeconds = Number.isFinite(total) ? total : null;
    await rm(timeFile, { force: true });
  }
  return { seconds, peakRssBytes, cpuSeconds, code, timedOut, stdout, stderr };
}
