import os from 'node:os';

/**
 * Files a process leaves behind (staging directories, meter journals) are named
 * `<host>~<pid>~<rest>`, so a process can tell its own host's leftovers from another host's on a
 * shared volume, and a dead process's from a live one's.
 */
export function hostTag(): string {
  return os.hostname().replace(/[^A-Za-z0-9.-]/g, '_');
}

/** `<host>~<pid>~` for this process. */
export function ownerPrefix(): string {
  return `${hostTag()}~${process.pid}~`;
}

/** The host and pid a `<host>~<pid>~…` name was made by, or null. */
export function ownerOf(name: string): { host: string; pid: number } | null {
  const m = /^([^~]+)~(\d+)~/.exec(name);
  return m ? { host: m[1]!, pid: Number(m[2]) } : null;
}

/**
 * Whether another process with this pid runs on this host. Our own pid counts as not alive:
 * a name with it comes from a previous life (the same pid after a restart in a container), unless
 * the caller knows better (see meter-journal's registry of this process's journals).
 */
export function otherProcessAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a `<host>~<pid>~…` name was left on this host by a process that is gone. */
export function leftByDeadProcess(name: string): boolean {
  const owner = ownerOf(name);
  return owner !== null && owner.host === hostTag() && !otherProcessAlive(owner.pid);
}
