import { TRANSIT_KIND } from '../../schemas/transit-release.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { enqueueIngest } from '../../jobs/enqueue.ts';
import { findKind } from '../../jobs/kinds/index.ts';
import { openQueue } from '../../jobs/queues.ts';
import { waitForJob } from '../../jobs/watch.ts';
import type { Config } from '../../lib/config.ts';
import { createProgressView } from '../commands/ingest-progress.ts';
import { CliError, type Output } from '../output.ts';
import { writeGeocodingSamples } from './geocoding-samples.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The bundled sample source of every release kind, as the options of `canmap ingest <kind>`; generated inputs go to `dir`. */
async function sampleSources(dir: string): Promise<Array<{ kind: string; options: Record<string, unknown> }>> {
  return [
    { kind: TRANSIT_KIND, options: { feeds: path.join(ROOT, 'samples/gtfs/feeds.json') } },
    { kind: 'geocoding', options: { input: await writeGeocodingSamples(dir) } },
    { kind: 'catalog', options: { definition: path.join(ROOT, 'samples/catalog/demo.catalog.json') } },
    { kind: 'basemap', options: { pbf: path.join(ROOT, 'samples/basemap/downtown-vancouver.osm.pbf'), provinces: path.join(ROOT, 'samples/catalog/provinces.geojson') } },
    { kind: 'assets', options: {} },
    { kind: 'terrain', options: { dem: [path.join(ROOT, 'samples/terrain/N48W125.hgt.gz')] } },
    { kind: 'roads', options: { osm: path.join(ROOT, 'samples/basemap/downtown-vancouver.osm.pbf') } },
    {
      kind: 'energy',
      options: {
        wells: ['wells-ab-st37.csv', 'wells-sk-st37.csv', 'wells-bc.csv'].map((f) => path.join(ROOT, 'samples/energy', f)),
        facilities: [path.join(ROOT, 'samples/energy/facilities-ab-st102.csv')],
      },
    },
    { kind: 'parcels', options: { parcels: [path.join(ROOT, 'samples/parcels/parcels-abbotsford.csv')] } },
  ];
}

/** Queues each sample with --enable, follows it like `ingest --wait`, and returns kind → release id. */
export async function ingestReleaseSamples(config: Config, redis: Redis, out: Output): Promise<Record<string, string>> {
  const releases: Record<string, string> = {};
  const dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-demo-inputs-'));
  try {
    for (const sample of await sampleSources(dir)) await ingestSample(config, redis, out, sample, releases);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return releases;
}

async function ingestSample(config: Config, redis: Redis, out: Output, sample: { kind: string; options: Record<string, unknown> }, releases: Record<string, string>) {
  const kind = findKind(sample.kind)!;
  const payload = { ...(await kind.cli.toPayload([], sample.options)), enable: true };
  const queue = openQueue(config, kind.kind, redis);
  try {
    const { jobId } = await enqueueIngest(config, queue, kind, payload);
    out.info(`ingesting the ${kind.kind} sample (${jobId})`);
    const view = createProgressView(out.json);
    const outcome = await waitForJob(queue, jobId, view.update).finally(view.end);
    if (!outcome.ok) throw new CliError(`the ${kind.kind} sample failed to ingest: ${outcome.reason}`);
    // This database already serves a larger release of the kind: the demo does not replace it.
    if (outcome.result.notEnabled) throw new CliError(`the ${kind.kind} sample was built (${outcome.result.release}) but not enabled: ${outcome.result.notEnabled}`);
    releases[kind.kind] = outcome.result.release;
  } finally {
    await queue.close();
  }
}

/** The API picks an enable up through NOTIFY; wait until every sample release is what it serves. */
export async function waitUntilServed(status: () => Record<string, { id: string | null; state: string }>, releases: Record<string, string>) {
  const deadline = Date.now() + 30_000;
  while (Object.entries(releases).some(([kind, id]) => status()[kind]?.id !== id || status()[kind]?.state !== 'ready')) {
    if (Date.now() > deadline) throw new CliError(`the API did not start serving ${JSON.stringify(releases)} within 30 s: ${JSON.stringify(status())}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
