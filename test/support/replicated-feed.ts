import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { extractFeedZip } from '../../ingest/transit/unzip.ts';

/**
 * Unpacks a real GTFS zip into `dir` and repeats every trip `copies` times (new trip_ids), so a
 * test gets a valid feed whose build takes seconds. Only for feeds without quoted CSV fields.
 */
export async function writeReplicatedFeed(zip: string, dir: string, copies: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  await extractFeedZip(zip, dir);
  for (const name of ['trips.txt', 'stop_times.txt']) {
    const file = path.join(dir, name);
    const lines: string[] = [];
    for await (const line of createInterface({ input: createReadStream(file) })) if (line) lines.push(line);
    const [header, ...rows] = lines;
    if (!header || lines.some((l) => l.includes('"'))) throw new Error(`${name}: expected unquoted CSV`);
    const tripColumn = header.split(',').indexOf('trip_id');
    const out = createWriteStream(file);
    out.write(`${header}\n`);
    for (let copy = 0; copy < copies; copy++) {
      let chunk = '';
      for (const row of rows) {
        const cells = row.split(',');
        if (copy > 0) cells[tripColumn] = `${cells[tripColumn]}_copy${copy}`;
        chunk += `${cells.join(',')}\n`;
      }
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  }
  return dir;
}
