import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { repoPath } from './paths.ts';
import { rawRequest } from './raw-http.ts';

const CANMAP = repoPath('bin/canmap.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node bin/canmap.js ...args` with the test's environment; resolves with its exit code and output. */
export function runCanmap(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CANMAP, ...args], { env: { ...process.env, ...env }, timeout: timeoutMs }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

export interface CanmapProcess {
  child: ChildProcess;
  /** Everything the worker printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once the output matches (polls the collected output). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export type WorkerProcess = CanmapProcess;

/** `canmap <args>` as a long-running child process; resolves once its output matches `ready`. */
export async function startCanmapProcess(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs?: number): Promise<CanmapProcess> {
  const child = spawn(process.execPath, [CANMAP, ...args], { env: { ...process.env, ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const proc: CanmapProcess = {
    child,
    output: () => text,
    async waitForOutput(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(text)) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`canmap ${args[0]} exited before printing ${pattern}:\n${text}`);
        if (Date.now() > deadline) throw new Error(`canmap ${args[0]} did not print ${pattern} within ${timeoutMs} ms:\n${text}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    exited,
  };
  await proc.waitForOutput(ready, timeoutMs);
  return proc;
}

export interface ApiProcess {
  proc: CanmapProcess;
  /** The API's and the admin server's base URLs, from the ready line. */
  api: string;
  admin: string;
}

/** `canmap serve` as a child process with `env`; resolves once it is ready, with its URLs. */
export async function startApiProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ApiProcess> {
  const proc = await startCanmapProcess(['serve'], env, /canmap API ready/, timeoutMs);
  const line = proc.output().split('\n').find((l) => l.includes('"canmap API ready"'))!;
  const { api, admin } = JSON.parse(line) as { api: string; admin: string };
  return { proc, api, admin: admin.replace(/\/healthz$/, '') };
}

/** `canmap worker` as a child process; resolves once it says it is ready. */
export function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  return startCanmapProcess(['worker'], env, /ready: /);
}

/** Stops a canmap process (API or worker) that a test left running; no-op when it already exited. */
export async function stopCanmapProcess(worker: WorkerProcess | undefined): Promise<void> {
  if (!worker || worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  worker.child.kill('SIGKILL');
  await worker.exited;
}

/**
 * Sends SIGTERM to a `canmap serve` while a client holds an upload open (its headers and part of
 * its body sent, the rest never): resolves with how the process exited (or 'still running' after
 * 20 s), how long after the signal, and whether the held connection was closed by then.
 */
export async function sigtermWithHeldUpload(proc: CanmapProcess, api: string, key: string): Promise<{ exit: unknown; afterMs: number; heldClosed: boolean }> {
  const held = await rawRequest(api, {
    path: '/byod',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json', 'content-length': '1000000' },
  }, '{"type":"FeatureCollection","features":[');
  // The upload is in flight (its temporary file is open) before the signal.
  await new Promise((r) => setTimeout(r, 500));
  const signalled = Date.now();
  proc.child.kill('SIGTERM');
  const exit = await Promise.race([proc.exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]);
  const afterMs = Date.now() - signalled;
  return { exit, afterMs, heldClosed: (await held.answer(1000)).closedAfterMs !== null };
}
