/**
 * Writes the bundled sample GTFS feeds (the data `npm run demo` ingests) and their feeds list.
 * Deterministic: run `npx tsx samples/gtfs/generate.ts` after changing a definition in
 * generator/feeds/ and commit the regenerated .txt files with it.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { halifaxFerry } from './generator/feeds/halifax-ferry.ts';
import { montrealBus } from './generator/feeds/montreal-bus.ts';
import { stjohnsBus } from './generator/feeds/stjohns-bus.ts';
import { torontoRail } from './generator/feeds/toronto-rail.ts';
import { vancouverBus } from './generator/feeds/vancouver-bus.ts';
import { renderFeed } from './generator/render.ts';
import type { SampleFeed } from './generator/sample-feed.ts';

export const SAMPLE_FEEDS: SampleFeed[] = [vancouverBus, torontoRail, montrealBus, halifaxFerry, stjohnsBus];

export const SAMPLES_DIR = path.dirname(fileURLToPath(import.meta.url));

const LICENCE = 'CC0-1.0 (canmap sample data)';
const ATTRIBUTION = 'canmap sample data — illustrative schedule, not a real timetable';

/** Every generated file: path relative to the samples folder → content. */
export function renderSamples(): Map<string, string> {
  const files = new Map<string, string>();
  for (const feed of SAMPLE_FEEDS) {
    for (const [name, text] of renderFeed(feed)) files.set(`${feed.id}/${name}`, text);
  }
  const list = SAMPLE_FEEDS.map((feed) => ({ id: feed.id, source: `./${feed.id}`, licence: LICENCE, attribution: ATTRIBUTION }));
  files.set('feeds.json', `${JSON.stringify(list, null, 2)}\n`);
  return files;
}

/** Replaces each feed folder under outDir with freshly rendered files (no stale .txt is left behind). */
export async function writeSamples(outDir: string): Promise<Map<string, string>> {
  const files = renderSamples();
  for (const feed of SAMPLE_FEEDS) {
    await rm(path.join(outDir, feed.id), { recursive: true, force: true });
    await mkdir(path.join(outDir, feed.id), { recursive: true });
  }
  for (const [relative, text] of files) await writeFile(path.join(outDir, relative), text);
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await writeSamples(SAMPLES_DIR);
  let total = 0;
  for (const [relative, text] of files) {
    const bytes = Buffer.byteLength(text);
    total += bytes;
    const rows = text.split('\n').length - 2;
    console.log(`${relative.padEnd(34)} ${String(bytes).padStart(7)} bytes ${relative.endsWith('.txt') ? `${rows} rows` : ''}`);
  }
  console.log(`total ${total} bytes`);
}
