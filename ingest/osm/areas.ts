/**
 * Polygons of the OSM areas a build selects by tags, in three passes that hold only what the
 * selected areas need:
 * 1. relations: multipolygon and boundary relations whose tags pass `select`; their member ways;
 * 2. ways: node lists of those member ways and of closed ways whose tags pass `select`
 *    (not `area=no`);
 * 3. nodes (a file sorted by type stops at its first way block): coordinates of the nodes
 *    those ways use (NodeStore: sorted ids, no Map).
 * Then every area is assembled (multipolygon.ts); one that cannot be (a member way or node
 * missing from a clipped extract, a ring that does not close) is reported in `skipped`.
 *
 * Members used: every way member of a multipolygon (its role is only a hint: containment
 * decides); of a boundary, ways with role outer, inner or none (label / admin_centre nodes and
 * subarea relations are boundaries' metadata, not their outline). Relation members of a
 * multipolygon (nested relations) are not followed. Open ways are never areas, whatever their
 * tags (administrative boundary segments are open ways). A closed way that is also an outer of
 * a selected relation with the same tags gives two areas, one per OSM object.
 */
import { float64List } from '../../lib/growable-array.ts';
import { assembleMultipolygon, type MemberWay, type MultiPolygonGeometry, type PolygonGeometry } from './multipolygon.ts';
import { NodeStore } from './node-store.ts';
import type { OsmTags } from './pbf-primitive-block.ts';
import { readOsm } from './pbf-reader.ts';

export interface OsmArea {
  /** `w123` for a closed way, `r456` for a relation. */
  osmId: string;
  tags: OsmTags;
  geometry: PolygonGeometry | MultiPolygonGeometry;
}

export interface SkippedArea {
  osmId: string;
  tags: OsmTags;
  /** Why it could not be assembled, e.g. `missing way 123`, `unclosed ring: ways 1, 2 end at node 3`. */
  reason: string;
}

export interface OsmAreas {
  areas: OsmArea[];
  skipped: SkippedArea[];
}

export type AreaProgress = (fraction: number, message: string) => void;

interface SelectedRelation {
  id: number;
  tags: OsmTags;
  members: { id: number; role: string }[];
}

const AREA_RELATION_TYPES: ReadonlySet<string> = new Set(['multipolygon', 'boundary']);
const BOUNDARY_WAY_ROLES: ReadonlySet<string> = new Set(['outer', 'inner', '']);

export async function readOsmAreas(pbfPath: string, select: (tags: OsmTags) => boolean, onProgress?: AreaProgress): Promise<OsmAreas> {
  const progress = (from: number, to: number, message: string) => (read: number, total: number) =>
    onProgress?.(from + ((to - from) * read) / total, message);

  // Pass 1: relations.
  const relations: SelectedRelation[] = [];
  const memberWays = new Set<number>();
  await readOsm(pbfPath, {
    relation(r) {
      const type = r.tags.type;
      if (type === undefined || !AREA_RELATION_TYPES.has(type) || !select(r.tags)) return;
      const members: SelectedRelation['members'] = [];
      for (const m of r.members) {
        if (m.type !== 'way' || (type === 'boundary' && !BOUNDARY_WAY_ROLES.has(m.role))) continue;
        members.push({ id: m.ref, role: m.role });
        memberWays.add(m.ref);
      }
      relations.push({ id: r.id, tags: r.tags, members });
    },
  }, { onProgress: progress(0, 0.4, 'reading area relations') });
  onProgress?.(0.4, `${relations.length} area relations with ${memberWays.size} member ways`);

  // Pass 2: ways.
  const refs = float64List(1 << 16);
  const wayRefs = new Map<number, { start: number; count: number }>();
  const closedWays: { id: number; tags: OsmTags }[] = [];
  const store = new NodeStore();
  await readOsm(pbfPath, {
    way(w) {
      const n = w.refs.length;
      const area = n > 1 && w.refs[0] === w.refs[n - 1] && w.tags.area !== 'no' && select(w.tags);
      if (!area && !memberWays.has(w.id)) return;
      if (area) closedWays.push({ id: w.id, tags: w.tags });
      wayRefs.set(w.id, { start: refs.length, count: n });
      for (const r of w.refs) {
        refs.push(r);
        store.want(r);
      }
    },
  }, { onProgress: progress(0.4, 0.7, 'reading area ways') });
  store.seal();
  onProgress?.(0.7, `${closedWays.length} closed ways selected, ${wayRefs.size} ways kept, ${store.size} nodes wanted`);

  // Pass 3: nodes.
  await readOsm(pbfPath, { node: (n) => store.offer(n.id, n.lng, n.lat) }, { onProgress: progress(0.7, 0.95, 'reading area nodes') });
  onProgress?.(0.95, `${store.found} of ${store.size} wanted nodes found; assembling ${closedWays.length + relations.length} areas`);

  const refData = refs.view();
  const memberWay = (id: number, role: string): MemberWay => {
    const at = wayRefs.get(id);
    if (!at) return { id, role, refs: null, coords: [] };
    const wayRefList = Array.from(refData.subarray(at.start, at.start + at.count));
    return { id, role, refs: wayRefList, coords: wayRefList.map((r) => store.get(r)) };
  };

  const areas: OsmArea[] = [];
  const skipped: SkippedArea[] = [];
  const assemble = (osmId: string, tags: OsmTags, members: MemberWay[]) => {
    const result = assembleMultipolygon(members);
    if ('error' in result) skipped.push({ osmId, tags, reason: result.error });
    else areas.push({ osmId, tags, geometry: result.geometry });
  };
  for (const w of closedWays) assemble(`w${w.id}`, w.tags, [memberWay(w.id, 'outer')]);
  for (const r of relations) assemble(`r${r.id}`, r.tags, r.members.map((m) => memberWay(m.id, m.role)));
  onProgress?.(1, `${areas.length} areas assembled, ${skipped.length} skipped`);
  return { areas, skipped };
}
