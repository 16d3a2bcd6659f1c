import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { FeedsList, type FeedSpec } from '../../schemas/transit-feeds.ts';
import { InvalidInputError } from '../errors.ts';

export function isHttpSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * Reads and validates a feeds list JSON file. Relative local sources are resolved against the
 * file's folder; any problem is an InvalidInputError naming the entry and field.
 */
export async function loadFeedsList(file: string): Promise<FeedSpec[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InvalidInputError(`cannot read feeds list ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new InvalidInputError(`feeds list ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const feeds = checkFeedsList(parsed, `feeds list ${file}`);
  const folder = path.dirname(path.resolve(file));
  return feeds.map((feed) => (isHttpSource(feed.source) ? feed : { ...feed, source: path.resolve(folder, feed.source) }));
}

/** Validates an in-memory feeds list (schema + unique ids). */
export function checkFeedsList(value: unknown, label = 'feeds list'): FeedSpec[] {
  const error = Value.Errors(FeedsList, value).First();
  if (error) {
    const [, index, field] = error.path.split('/');
    const entry = index !== undefined && Array.isArray(value) ? value[Number(index)] : undefined;
    const entryId = entry && typeof entry === 'object' && typeof (entry as { id?: unknown }).id === 'string' ? ` (id ${JSON.stringify((entry as { id: string }).id)})` : '';
    const where = index === undefined || index === '' ? '' : field ? `entry ${index}${entryId}, field "${field}": ` : `entry ${index}${entryId}: `;
    const got = error.value === undefined ? 'missing' : `got ${JSON.stringify(error.value)}`;
    throw new InvalidInputError(`${label}: ${where}${error.message} (${got})`);
  }
  const feeds = value as FeedSpec[];
  const seen = new Set<string>();
  for (const [index, feed] of feeds.entries()) {
    if (seen.has(feed.id)) throw new InvalidInputError(`${label}: entry ${index}: duplicate feed id ${JSON.stringify(feed.id)}`);
    seen.add(feed.id);
  }
  return feeds;
}
