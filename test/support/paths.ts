import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository root, whatever the folder of the test or benchmark that asks. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** `../shared/data` beside the repository: the real public data tests and benchmarks read. */
export const SHARED_DATA = path.resolve(REPO_ROOT, '../shared/data');

/**
 * A path under ../shared/data; throws a message that says what is missing and where it was
 * looked for, instead of a later ENOENT deep inside a reader.
 */
export function sharedData(...parts: string[]): string {
  const file = path.join(SHARED_DATA, ...parts);
  if (!existsSync(file)) {
    throw new Error(`missing shared data: ${path.join('../shared/data', ...parts)} (looked for ${file}); ` +
      'check out the shared folder beside the repository');
  }
  return file;
}

export const repoPath = (...parts: string[]): string => path.join(REPO_ROOT, ...parts);
