import { createHash } from 'node:crypto';

/** sha256 over the builder version and the (name, sha256) of every input, in name order. */
export function computeContentHash(builderVersion: string, inputs: { name: string; sha256: string }[]): string {
  const hash = createHash('sha256').update(`builder ${builderVersion}\n`);
  for (const input of [...inputs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    hash.update(`input ${input.name} ${input.sha256}\n`);
  }
  return hash.digest('hex');
}

/** `YYYY-MM-DD-<first 12 hex of the content hash>`, the date being the UTC build date. */
export function releaseIdFor(contentHash: string, date: Date = new Date()): string {
  return `${date.toISOString().slice(0, 10)}-${contentHash.slice(0, 12)}`;
}
