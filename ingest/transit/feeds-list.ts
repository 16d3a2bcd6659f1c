import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { FeedsList, LocatedFeedsList, type LocatedFeed } from '../../schemas/transit-feeds.ts';
import { InvalidInputError } from '../errors.ts';

export function isHttpSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * Reads and validates a feeds list JSON file; any problem is an InvalidInputError naming the
 * entry and field. A local source keeps its text as written (it is public: manifest, coverage,
 * answers) and gets a `location`: its absolute path, relative ones resolved against the file's folder.
 */
export async function loadFeedsList(file: string): Promise<LocatedFeed[]> {
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
  // as written: a `location` in the file itself is refused (additional property)
  const feeds = checkFeedsList(parsed, `feeds list ${file}`, FeedsList);
  const folder = path.dirname(path.resolve(file));
  return feeds.map((feed) => (isHttpSource(feed.source) ? feed : { ...feed, location: path.resolve(folder, feed.source) }));
}

/** Validates an in-memory feeds list (schema + unique ids); by default feeds may carry a `location`. */
export function checkFeedsList(value: unknown, label = 'feeds list', schema: typeof FeedsList | typeof LocatedFeedsList = LocatedFeedsList): LocatedFeed[] {
  const error = Value.Errors(schema, value).First();
  if (error) {
    const [, index, field] = error.path.split('/');
    const entry = index !== undefined && Array.isArray(value) ? value[Number(index)] : undefined;
    const entryId = entry && typeof entry === 'object' && typeof (entry as { id?: unknown }).id === 'string' ? ` (id ${JSON.stringify((entry as { id: string }).id)})` : '';
    const where = index === undefined || index === '' ? '' : field ? `entry ${index}${entryId}, field "${field}": ` : `entry ${index}${entryId}: `;
    const got = error.value === undefined ? 'missing' : `got ${JSON.stringify(error.value)}`;
    throw new InvalidInputError(`${label}: ${where}${error.message} (${got})`);
  }
  const feeds = value as LocatedFeed[];
  const seen = new Set<string>();
  for (const [index, feed] of feeds.entries()) {
    if (seen.has(feed.id)) throw new InvalidInputError(`${label}: entry ${index}: duplicate feed id ${JSON.stringify(feed.id)}`);
    seen.add(feed.id);
  }
  return feeds;
}
