import { mkdir } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { edgeCsvLines, turnCsvLines } from '../../engines/routing/edge-export.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { localReleaseDir } from '../../releases/object-store/local-copy.ts';
import { getRelease } from '../../releases/registry.ts';
import { ROADS_GRAPH_FILE, ROADS_KIND } from '../../schemas/roads-release.ts';
import { parseCommandArgs, rejectExtraArguments } from '../args.ts';
import { withPool, withSubcommands, type CommandContext } from '../command.ts';
import { CliError } from '../output.ts';

const EXPORT_USAGE = 'roads export (--graph FILE | --release ID) --out DIR';

/** The graph file of a registered roads release. */
async function releaseGraphFile(ctx: CommandContext, id: string): Promise<string> {
  const release = await withPool(ctx, (pool) => getRelease(pool, id));
  if (!release) throw new CliError(`unknown release ${id}`);
  if (release.kind !== ROADS_KIND) throw new CliError(`release ${id} is a ${release.kind} release, not ${ROADS_KIND}`, 2);
  return path.join(await localReleaseDir(release, ctx.config), ROADS_GRAPH_FILE);
}

/** Lines joined into chunks of about 1 MB, so the stream is not fed one short string at a time. */
function* chunks(lines: Iterable<string>, counter: { lines: number }): Generator<string> {
  let buffer = '';
  for (const line of lines) {
    buffer += `${line}\n`;
    counter.lines++;
    if (buffer.length >= 1 << 20) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

/** Writes the lines to `file`; the number of data rows (the header is not counted). */
async function writeCsv(file: string, lines: Iterable<string>): Promise<number> {
  const counter = { lines: 0 };
  await pipeline(Readable.from(chunks(lines, counter)), createWriteStream(file));
  return counter.lines - 1;
}

async function exportGraph(argv: string[], ctx: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, { graph: { type: 'string' }, release: { type: 'string' }, out: { type: 'string' } }, EXPORT_USAGE);
  rejectExtraArguments(positionals, 0, EXPORT_USAGE);
  if ((values.graph === undefined) === (values.release === undefined) || values.out === undefined) {
    throw new CliError(`give --out and exactly one of --graph and --release\nusage: canmap ${EXPORT_USAGE}`, 2);
  }
  const file = values.graph ?? (await releaseGraphFile(ctx, values.release!));
  const graph = await RoadGraph.open(file);
  await mkdir(values.out, { recursive: true });
  const edgesFile = path.join(values.out, 'edges.csv');
  const turnsFile = path.join(values.out, 'turns.csv');
  const edges = await writeCsv(edgesFile, edgeCsvLines(graph));
  const turns = await writeCsv(turnsFile, turnCsvLines(graph));
  ctx.out.result({ graph: file, edges, turns, edges_file: edgesFile, turns_file: turnsFile },
    `${edges} edges → ${edgesFile}\n${turns} forbidden turns → ${turnsFile}`);
}

export const roadsCommand = withSubcommands(
  {
    name: 'roads',
    summary: 'export a road graph (a file or a roads release) as CSV: directed edges with per-mode costs, forbidden turns',
    usage: EXPORT_USAGE,
  },
  { export: exportGraph },
);
