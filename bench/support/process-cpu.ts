/**
 * CPU seconds (user + system) of a process from /proc/<pid>/stat, to tell whether a load run was
 * bound by the server or by the load generator sharing its cores. Clock ticks are taken as
 * 100 per second (Linux's USER_HZ on every common architecture).
 */
import { readFileSync } from 'node:fs';

const USER_HZ = 100;

export function processCpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces) start at the state, field 3: utime is 14, stime 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return NaN;
  }
}

/** CPU seconds of this process so far (the load generator when it runs in-process). */
export const selfCpuSeconds = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

/** CPU seconds of this process's children that have exited and been waited for (a wrk run). */
export function reapedChildrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ').at(-1)!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / USER_HZ;
}
