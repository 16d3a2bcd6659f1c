import type { Config } from '../lib/config.ts';

export type LogLevel = Config['logLevel'];
export type JobLog = (level: 'error' | 'warn' | 'info' | 'debug', line: string) => void;

const RANK: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** One timestamped line per event, for people reading a worker's output (and for log collectors). */
export function createJobLog(level: LogLevel, write: (text: string) => void = (t) => process.stdout.write(t)): JobLog {
  return (lineLevel, line) => {
    if ((RANK[lineLevel] ?? 0) < (RANK[level] ?? RANK.info!)) return;
    write(`${new Date().toISOString()} ${lineLevel.padEnd(5)} ${line}\n`);
  };
}
