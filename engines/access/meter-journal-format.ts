import type { MeterEvent } from './metering.ts';

/**
 * The line format of a meter journal file: one line per answered request, appended by the API
 * (io/access/meter-journal.ts) and counted by the flush (io/access/meter-journal-file.ts).
 */

export const JOURNAL_SUFFIX = '.meter';

export function encodeEvent(e: MeterEvent): string {
  return `${e.day}\t${e.keyId}\t${e.accountId ?? ''}\t${e.family}\t${e.dev ? 1 : 0}\t${e.calls}\t${e.premium}\n`;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const COUNT = /^\d{1,9}$/;

/** A line back into its event; null for a line that is not one (never written by encodeEvent). */
export function decodeLine(line: string): MeterEvent | null {
  const f = line.split('\t');
  if (f.length !== 7 || !DAY.test(f[0]!) || !f[1] || !f[3] || (f[4] !== '0' && f[4] !== '1') || !COUNT.test(f[5]!) || !COUNT.test(f[6]!)) return null;
  return { day: f[0]!, keyId: f[1], accountId: f[2] || null, family: f[3], dev: f[4] === '1', calls: Number(f[5]), premium: Number(f[6]) };
}
