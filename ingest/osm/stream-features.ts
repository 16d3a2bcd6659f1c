/**
 * The same selection as readOsmFeatures (features.ts), in memory bounded whatever the file's
 * size, for files sorted by type then id (as extracts are): features go to the sink as they are
 * built instead of into arrays.
 * 1. relations: those whose tags pass `area`, and their member ways' ids (kept in memory: a
 *    national extract has a few hundred thousand such relations);
 * 2. nodes then ways, in one read: every node into the node table (node-table.ts, on disk), each
 *    tagged node that passes `point` to the sink; then each selected way gets its coordinates
 *    from the table and goes to the sink as an area or a line, and each relation member way is
 *    written to the way table (way-table.ts, on disk);
 * 3. the relations are assembled from the way table.
 * A node after a way, or nodes out of id order, stop the read with UnsortedNodesError: the
 * caller reads such a file in memory instead.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { lineGeometry, never, readAreaRelations, wayUse, type FeatureProgress, type OsmArea, type OsmLine, type OsmPoint, type OsmSelection } from './features.ts';
import { sortedHas } from '../../lib/sorted-search.ts';
import { assembleClosedWay, assembleMultipolygon, type MultipolygonResult } from './multipolygon.ts';
import { NodeTableWriter, UnsortedNodesError, type NodeTable } from './node-table.ts';
import type { OsmFileHeader } from './pbf-header-block.ts';
import { NO_TAGS, type OsmTags } from './pbf-primitive-block.ts';
import { readOsmFile as readOsm } from './read-osm-file.ts';
import { WayTableWriter, type WayTable } from './way-table.ts';

export interface FeatureSink {
  /** `from`: a closed way, or a relation (every closed way comes before every relation). */
  area(area: OsmArea, from: 'way' | 'relation'): void;
  line(line: OsmLine): void;
  point(point: OsmPoint): void;
  /** An object whose geometry could not be built, and why. */
  skipped(osmId: string, reason: string): void;
}

export interface StreamOptions {
  /** Where the node and way tables go (removed at the end). */
  dir: string;
  /** Bytes of node-table pages kept in memory. */
  nodeCacheBytes: number;
  onProgress?: FeatureProgress;
}

export interface StreamSummary {
  header: OsmFileHeader;
  nodes: number;
  /** Node-table pages read back from disk. */
  pageReads: number;
  /** Bytes of the node and way tables (removed at the end). */
  tableBytes: number;
}

export async function streamOsmFeatures(pbfPath: string, selection: OsmSelection, sink: FeatureSink, options: StreamOptions): Promise<StreamSummary> {
  const { onProgress } = options;
  const selectArea = selection.area ?? never;
  const selectLine = selection.line ?? never;
  const selectPoint = selection.point;
  const { relations, memberWays } = await readAreaRelations(pbfPath, selection, (read, total) => onProgress?.((0.2 * read) / total, 'reading area relations'), onProgress && ((f, m) => onProgress(f / 2, m)));

  const nodesWriter = new NodeTableWriter(path.join(options.dir, 'nodes.table'));
  const waysWriter = new WayTableWriter(path.join(options.dir, 'member-ways.table'));
  let nodes: NodeTable | null = null;
  let ways: WayTable | null = null;
  const coordsOf = (refs: readonly number[]) => refs.map((r) => nodes!.get(r));
  try {
    const { header } = await readOsm(pbfPath, {
      node(n) {
        if (nodes) throw new UnsortedNodesError(`node ${n.id} comes after a way`);
        nodesWriter.append(n.id, n.lng, n.lat);
        if (selectPoint && n.tags !== NO_TAGS && selectPoint(n.tags)) {
          sink.point({ osmId: `n${n.id}`, tags: n.tags, geometry: { type: 'Point', coordinates: [n.lng, n.lat] } });
        }
      },
      way(w) {
        nodes ??= nodesWriter.finish(options.nodeCacheBytes);
        const { area, line } = wayUse(w, selectArea, selectLine);
        const member = sortedHas(memberWays, w.id);
        if (!area && !line && !member) return;
        const coords = coordsOf(w.refs);
        if (member) waysWriter.add(w.id, w.refs, coords);
        if (area) toSink(sink, `w${w.id}`, w.tags, assembleClosedWay({ id: w.id, role: 'outer', refs: w.refs, coords }), 'way');
        if (line) {
          const geometry = lineGeometry(coords);
          if (geometry) sink.line({ osmId: `w${w.id}`, tags: w.tags, geometry });
          else sink.skipped(`w${w.id}`, 'fewer than 2 of its nodes are in the file');
        }
      },
    }, { onProgress: (read, total) => onProgress?.(0.2 + (0.75 * read) / total, 'reading nodes and ways') });
    nodes ??= nodesWriter.finish(options.nodeCacheBytes);
    ways = waysWriter.finish();
    onProgress?.(0.95, `${nodesWriter.count} nodes stored; assembling ${relations.length} area relations from ${ways.size} member ways`);
    for (const r of relations) toSink(sink, `r${r.id}`, r.tags, assembleMultipolygon(r.members.map((m) => ways!.member(m.id, m.role))), 'relation');
    return { header, nodes: nodesWriter.count, pageReads: nodes.reads, tableBytes: nodesWriter.bytes + waysWriter.bytes };
  } finally {
    if (nodes) nodes.close();
    else nodesWriter.abandon();
    if (ways) ways.close();
    else waysWriter.abandon();
    await Promise.all([rm(nodesWriter.path, { force: true }), rm(path.join(options.dir, 'member-ways.table'), { force: true })]);
  }
}

function toSink(sink: FeatureSink, osmId: string, tags: OsmTags, assembled: MultipolygonResult, from: 'way' | 'relation'): void {
  if ('error' in assembled) sink.skipped(osmId, assembled.error);
  else sink.area({ osmId, tags, geometry: assembled.geometry }, from);
}
