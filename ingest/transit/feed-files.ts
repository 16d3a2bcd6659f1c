import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { refuse } from './refusal.ts';

/** The .txt files of one feed: lower-cased file name (e.g. "stops.txt") → absolute path. */
export type FeedFiles = Map<string, string>;

const MAX_DEPTH = 4;

/** Files a zip (or folder) may carry that are not part of the feed: macOS metadata. */
export function isJunkPath(name: string): boolean {
  return name.split('/').some((part) => part === '__MACOSX' || part.startsWith('._') || part === '.DS_Store');
}

/**
 * Finds the feed's .txt files under dir. Like a zip, a directory may nest the feed in one
 * sub-folder, but .txt files spread over several folders are refused. Refusals name the folder
 * as `label` (the source as written), never as the path it was read from.
 */
export async function listFeedFiles(dir: string, label = dir): Promise<FeedFiles> {
  const found: string[] = [];
  await walk(dir, 0, found);
  if (found.length === 0) refuse(`${label} contains no .txt files`);
  const folders = [...new Set(found.map((file) => path.dirname(file)))];
  if (folders.length > 1) {
    const names = folders.slice(0, 3).map((f) => path.relative(dir, f) || '(top level)');
    refuse(`${label} has .txt files in ${folders.length} folders (${names.join(', ')}): a feed must keep its files in one folder`);
  }
  const files: FeedFiles = new Map();
  for (const file of found) {
    const name = path.basename(file).toLowerCase();
    if (files.has(name)) refuse(`${label} has ${path.basename(file)} twice (names differ only in case)`);
    files.set(name, file);
  }
  return files;
}

async function walk(dir: string, depth: number, found: string[]): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (isJunkPath(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (depth < MAX_DEPTH) await walk(full, depth + 1, found);
    } else if (entry.name.toLowerCase().endsWith('.txt') && (entry.isFile() || (await stat(full)).isFile())) {
      found.push(full);
    }
  }
}
