/**
 * A referentially complete copy of an OSM extract, optionally cut to a box: ways whose nodes are
 * all in the file (and, with a box, have a node inside it), the nodes they use, tagged nodes
 * (inside the box), and relations whose node and way members were all kept (relation members
 * are dropped). Clipped extracts such as Pelias's Vancouver one reference nodes they do not hold,
 * which tilemaker 2.2 aborts on; this copy is what both basemap builders read in bench/maps, and
 * (cut to downtown Vancouver) the demo's basemap input:
 *   node --import tsx samples/basemap/cut-extract.ts ../shared/data/osm/pelias-vancouver_canada.osm.pbf
 */
import path from 'node:path';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';
import { OsmPbfWriter, type OsmWriteRelation, type OsmWriteSummary, type OsmWriteWay } from '../geocoding/pbf-writer.ts';

type Box = readonly [number, number, number, number];

/** Downtown Vancouver, Stanley Park and the north shore of False Creek. */
export const SAMPLE_BOX: Box = [-123.1500, 49.2680, -123.1000, 49.3050];
export const SAMPLE_FILE = path.join(import.meta.dirname, 'downtown-vancouver.osm.pbf');

export async function writeCompleteExtract(source: string, target: string, box?: Box): Promise<OsmWriteSummary> {
  const inBox = (lng: number, lat: number) => !box || (lng >= box[0] && lng <= box[2] && lat >= box[1] && lat <= box[3]);
  const nodes = new Map<number, { lng: number; lat: number; tags: Record<string, string> }>();
  const { header } = await readOsm(source, { node: (n) => nodes.set(n.id, { lng: n.lng, lat: n.lat, tags: { ...n.tags } }) });
  const bbox = box ?? header.bbox;
  const ways: OsmWriteWay[] = [];
  const relations: OsmWriteRelation[] = [];
  const usedNodes = new Set<number>();
  const keptWays = new Set<number>();
  await readOsm(source, {
    way(w) {
      if (!w.refs.every((r) => nodes.has(r)) || !w.refs.some((r) => inBox(nodes.get(r)!.lng, nodes.get(r)!.lat))) return;
      ways.push({ id: w.id, refs: w.refs, tags: { ...w.tags } });
      keptWays.add(w.id);
      for (const r of w.refs) usedNodes.add(r);
    },
    relation(r) {
      relations.push({ id: r.id, tags: { ...r.tags }, members: r.members.filter((m) => m.type !== 'relation') });
    },
  });
  const kept = (m: OsmWriteRelation['members'][number]) => (m.type === 'way' ? keptWays.has(m.ref) : usedNodes.has(m.ref) || (nodes.has(m.ref) && inBox(nodes.get(m.ref)!.lng, nodes.get(m.ref)!.lat)));
  const complete = relations.filter((r) => r.members.length > 0 && r.members.every(kept));
  for (const r of complete) for (const m of r.members) if (m.type === 'node') usedNodes.add(m.ref);

  const writer = new OsmPbfWriter(target, { sorted: true, ...(bbox ? { bbox } : {}), writingProgram: 'canmap samples/basemap/cut-extract.ts' });
  for (const id of [...nodes.keys()].sort((a, b) => a - b)) {
    const n = nodes.get(id)!;
    if (usedNodes.has(id) || (Object.keys(n.tags).length > 0 && inBox(n.lng, n.lat))) writer.node({ id, lng: n.lng, lat: n.lat, tags: n.tags });
  }
  for (const w of ways.sort((a, b) => a.id - b.id)) writer.way(w);
  for (const r of complete.sort((a, b) => a.id - b.id)) writer.relation(r);
  return writer.close();
}

if (process.argv[1] === import.meta.filename) {
  const source = process.argv[2];
  if (!source) throw new Error('usage: cut-extract.ts SOURCE.osm.pbf');
  const summary = await writeCompleteExtract(source, SAMPLE_FILE, SAMPLE_BOX);
  console.log(`${SAMPLE_FILE}: ${summary.nodes} nodes, ${summary.ways} ways, ${summary.relations} relations, ${summary.bytes} bytes`);
}
