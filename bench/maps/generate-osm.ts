/**
 * A seeded synthetic province (southern Ontario and Quebec, inland: no coastline) as an OSM PBF,
 * for basemap benchmarks larger than the Vancouver extract (see test/support/synthetic-osm/generate.ts).
 *
 *   node --import tsx bench/maps/generate-osm.ts --size small|medium|large | --nodes N --out FILE [--seed 1] [--reuse] [--json]
 */
import { parseArgs } from 'node:util';
import { generateSyntheticOsm } from '../../test/support/synthetic-osm/generate.ts';
import { SIZES, type SizeName } from '../../test/support/synthetic-osm/region.ts';

{
  const { values } = parseArgs({
    options: {
      size: { type: 'string' },
      nodes: { type: 'string' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (!values.out) throw new Error('--out FILE is required');
  if (values.size !== undefined && !(values.size in SIZES)) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}, got ${values.size}`);
  if (values.size !== undefined && values.nodes !== undefined) throw new Error('give --size or --nodes, not both');

  const summary = await generateSyntheticOsm({
    size: values.size as SizeName | undefined,
    nodes: values.nodes === undefined ? undefined : Number(values.nodes),
    seed: Number(values.seed),
    out: values.out,
    reuse: values.reuse,
    log,
  });
  log(`${summary.out}: ${summary.nodes.toLocaleString('en')} nodes, ${summary.ways.toLocaleString('en')} ways, ${summary.relations.toLocaleString('en')} relations, ` +
    `${(summary.bytes / 2 ** 20).toFixed(1)} MiB in ${summary.seconds.toFixed(1)} s; ${summary.towns} towns; bbox ${summary.bbox.map((x) => x.toFixed(4)).join(',')}`);
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
}

