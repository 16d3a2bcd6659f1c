import { createHash } from 'node:crypto';

/** `<kind>-<16 hex>`; BullMQ refuses custom ids containing ':' (and plain integers). */
export function jobIdFor(kind: string, jobKey: string): string {
  return `${kind}-${createHash('sha256').update(jobKey).digest('hex').slice(0, 16)}`;
}
