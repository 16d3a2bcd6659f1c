/**
 * Debian peers of the benchmarks (GDAL, tilemaker, sqlite3): found on PATH, or installed with
 * apt-get (through `sudo -n` when not root) when missing. The product never needs them.
 */
import { spawnSync } from 'node:child_process';

export interface ToolCheck {
  available: boolean;
  version: string | null;
  /** What was done or what went wrong, to print. */
  notes: string[];
}

export function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;
}

export function aptInstall(packages: string[], notes: string[]): void {
  notes.push(`installing ${packages.join(', ')} with apt-get (not found on PATH) ...`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args: string[]) => {
    const [command, ...rest] = [...sudo, ...args];
    return spawnSync(command!, rest, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  for (const args of [['apt-get', 'update'], ['apt-get', 'install', '-y', '--no-install-recommends', ...packages]]) {
    const result = run(args);
    if (result.status !== 0) {
      notes.push(`  ${args.join(' ')} failed: ${(result.stderr || result.error?.message || '').trim().split('\n').slice(-2).join(' ')}`);
      return;
    }
  }
  notes.push(`  installed ${packages.join(', ')}`);
}

/** `SELECT …` on an SQLite file (MBTiles) with the sqlite3 CLI, rows of `|`-separated cells; null without sqlite3 or on an error. */
export function sqliteRows(file: string, sql: string): string[][] | null {
  if (!onPath('sqlite3')) return null;
  const result = spawnSync('sqlite3', [file, sql], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  return result.stdout.trim().split('\n').filter(Boolean).map((line) => line.split('|'));
}
