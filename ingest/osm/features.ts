/**
 * The OSM features a build selects by tags — areas, lines and points — in three passes that hold
 * only what the selected features need:
 * 1. relations: multipolygon and boundary relations whose tags pass `area`; their member ways;
 * 2. ways: node lists of those member ways, of closed ways whose tags pass `area` (not
 *    `area=no`) and of ways whose tags pass `line` (a closed way that is an area is not a line);
 * 3. nodes (a file sorted by type stops at its first way block): coordinates of the nodes those
 *    ways use (NodeStore: sorted ids, no Map), and tagged nodes that pass `point`.
 * Then every area is assembled (multipolygon.ts); one that cannot be (a member way or node
 * missing from a clipped extract, a ring that does not close) is reported in `skipped`. A line
 * whose nodes are partly missing (cut by the extract's edge) keeps each run of ≥ 2 present nodes.
 *
 * Members used: every way member of a multipolygon (its role is only a hint: containment
 * decides); of a boundary, ways with role outer, inner or none (label / admin_centre nodes and
 * subarea relations are boundaries' metadata, not their outline). Relation members of a
 * multipolygon (nested relations) are not followed. Open ways are never areas, whatever their
 * tags (administrative boundary segments are open ways). A closed way that is also an outer of
 * a selected relation with the same tags gives two areas, one per OSM object.
 */
import { float64List } from '../../lib/growable-array.ts';
import { sortedHas } from '../../lib/sorted-search.ts';
import { assembleClosedWay, assembleMultipolygon, type MemberWay, type MultipolygonResult, type MultiPolygonGeometry, type PolygonGeometry } from './multipolygon.ts';
import { NodeStore } from './node-store.ts';
import type { OsmFileHeader } from './pbf-header-block.ts';
import { NO_TAGS, type OsmTags, type OsmWay } from './pbf-primitive-block.ts';
import { readOsmFile as readOsm } from './read-osm-file.ts';

export interface OsmArea {
  /** `w123` for a closed way, `r456` for a relation. */
  osmId: string;
  tags: OsmTags;
  geometry: PolygonGeometry | MultiPolygonGeometry;
}

export interface OsmLine {
  /** `w123`. */
  osmId: string;
  tags: OsmTags;
  geometry: GeoJSON.LineString | GeoJSON.MultiLineString;
}

export interface OsmPoint {
  /** `n123`. */
  osmId: string;
  tags: OsmTags;
  geometry: GeoJSON.Point;
}

export interface SkippedFeature {
  osmId: string;
  tags: OsmTags;
  /** Why it could not be built, e.g. `missing way 123`, `unclosed ring: ways 1, 2 end at node 3`. */
  reason: string;
}

export interface OsmFeatures {
  /** The file's header (its bbox, when it has one). */
  header: OsmFileHeader;
  areas: OsmArea[];
  lines: OsmLine[];
  points: OsmPoint[];
  skipped: SkippedFeature[];
}

export type TagSelect = (tags: OsmTags) => boolean;

export interface OsmSelection {
  area?: TagSelect;
  line?: TagSelect;
  point?: TagSelect;
}

export type FeatureProgress = (fraction: number, message: string) => void;

export interface SelectedRelation {
  id: number;
  tags: OsmTags;
  members: { id: number; role: string }[];
}

const AREA_RELATION_TYPES: ReadonlySet<string> = new Set(['multipolygon', 'boundary']);
const BOUNDARY_WAY_ROLES: ReadonlySet<string> = new Set(['outer', 'inner', '']);
export const never: TagSelect = () => false;

export async function readOsmFeatures(pbfPath: string, selection: OsmSelection, onProgress?: FeatureProgress): Promise<OsmFeatures> {
  const selectArea = selection.area ?? never;
  const selectLine = selection.line ?? never;
  const selectPoint = selection.point;
  const progress = (from: number, to: number, message: string) => (read: number, total: number) =>
    onProgress?.(from + ((to - from) * read) / total, message);

  const { relations, memberWays } = await readAreaRelations(pbfPath, selection, progress(0, 0.4, 'reading area relations'), onProgress);

  // Pass 2: ways.
  const refs = float64List(1 << 16);
  const wayRefs = new Map<number, { start: number; count: number }>();
  const closedWays: { id: number; tags: OsmTags }[] = [];
  const lineWays: { id: number; tags: OsmTags }[] = [];
  const store = new NodeStore();
  if (selection.area || selection.line) {
    await readOsm(pbfPath, {
      way(w) {
        const { area, line } = wayUse(w, selectArea, selectLine);
        const n = w.refs.length;
        if (!area && !line && !sortedHas(memberWays, w.id)) return;
        if (area) closedWays.push({ id: w.id, tags: w.tags });
        if (line) lineWays.push({ id: w.id, tags: w.tags });
        wayRefs.set(w.id, { start: refs.length, count: n });
        for (const r of w.refs) {
          refs.push(r);
          store.want(r);
        }
      },
    }, { onProgress: progress(0.4, 0.7, 'reading ways') });
  }
  store.seal();
  onProgress?.(0.7, `${closedWays.length} closed ways and ${lineWays.length} lines selected, ${store.size} nodes wanted`);

  // Pass 3: nodes.
  const points: OsmPoint[] = [];
  const { header } = await readOsm(pbfPath, {
    node(n) {
      store.offer(n.id, n.lng, n.lat);
      if (selectPoint && n.tags !== NO_TAGS && selectPoint(n.tags)) {
        points.push({ osmId: `n${n.id}`, tags: n.tags, geometry: { type: 'Point', coordinates: [n.lng, n.lat] } });
      }
    },
  }, { onProgress: progress(0.7, 0.95, 'reading nodes') });
  onProgress?.(0.95, `${store.found} of ${store.size} wanted nodes found; assembling ${closedWays.length + relations.length} areas`);

  const refData = refs.view();
  const refsOf = (id: number): number[] | null => {
    const at = wayRefs.get(id);
    return at ? Array.from(refData.subarray(at.start, at.start + at.count)) : null;
  };
  const memberWay = (id: number, role: string): MemberWay => {
    const wayRefList = refsOf(id);
    return wayRefList ? { id, role, refs: wayRefList, coords: wayRefList.map((r) => store.get(r)) } : { id, role, refs: null, coords: [] };
  };

  const result: OsmFeatures = { header, areas: [], lines: [], points, skipped: [] };
  const assemble = (osmId: string, tags: OsmTags, assembled: MultipolygonResult) => {
    if ('error' in assembled) result.skipped.push({ osmId, tags, reason: assembled.error });
    else result.areas.push({ osmId, tags, geometry: assembled.geometry });
  };
  for (const w of closedWays) assemble(`w${w.id}`, w.tags, assembleClosedWay(memberWay(w.id, 'outer')));
  for (const r of relations) assemble(`r${r.id}`, r.tags, assembleMultipolygon(r.members.map((m) => memberWay(m.id, m.role))));
  for (const w of lineWays) {
    const geometry = lineGeometry(refsOf(w.id)!.map((r) => store.get(r)));
    if (geometry) result.lines.push({ osmId: `w${w.id}`, tags: w.tags, geometry });
    else result.skipped.push({ osmId: `w${w.id}`, tags: w.tags, reason: 'fewer than 2 of its nodes are in the file' });
  }
  onProgress?.(1, `${result.areas.length} areas, ${result.lines.length} lines, ${points.length} points; ${result.skipped.length} skipped`);
  return result;
}

/**
 * Pass 1 of either reader: the multipolygon and boundary relations whose tags pass `area`, with
 * the way members used, and the ids of those member ways (sorted, distinct).
 */
export async function readAreaRelations(pbfPath: string, selection: OsmSelection, onRead: (read: number, total: number) => void, onProgress?: FeatureProgress): Promise<{ relations: SelectedRelation[]; memberWays: Float64Array }> {
  const relations: SelectedRelation[] = [];
  const ids = float64List(1 << 12);
  const selectArea = selection.area;
  if (!selectArea) return { relations, memberWays: new Float64Array(0) };
  await readOsm(pbfPath, {
    relation(r) {
      const type = r.tags.type;
      if (type === undefined || !AREA_RELATION_TYPES.has(type) || !selectArea(r.tags)) return;
      const members: SelectedRelation['members'] = [];
      for (const m of r.members) {
        if (m.type !== 'way' || (type === 'boundary' && !BOUNDARY_WAY_ROLES.has(m.role))) continue;
        members.push({ id: m.ref, role: m.role });
        ids.push(m.ref);
      }
      relations.push({ id: r.id, tags: r.tags, members });
    },
  }, { onProgress: onRead });
  const sorted = ids.view().sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
  const memberWays = sorted.slice(0, n);
  onProgress?.(0.4, `${relations.length} area relations with ${memberWays.length} member ways`);
  return { relations, memberWays };
}

/** A closed way whose tags pass `area` (and not `area=no`) is an area; another way whose tags pass `line` is a line. */
export function wayUse(w: OsmWay, selectArea: TagSelect, selectLine: TagSelect): { area: boolean; line: boolean } {
  const n = w.refs.length;
  const area = n > 1 && w.refs[0] === w.refs[n - 1] && w.tags.area !== 'no' && selectArea(w.tags);
  return { area, line: !area && n > 1 && selectLine(w.tags) };
}

/** The runs of ≥ 2 present coordinates: one LineString, several (a way cut by the extract's edge), or none. */
export function lineGeometry(coords: ([number, number] | null)[]): GeoJSON.LineString | GeoJSON.MultiLineString | null {
  const runs: [number, number][][] = [];
  let run: [number, number][] = [];
  for (const c of coords) {
    if (c) run.push(c);
    else {
      if (run.length >= 2) runs.push(run);
      run = [];
    }
  }
  if (run.length >= 2) runs.push(run);
  if (runs.length === 0) return null;
  return runs.length === 1 ? { type: 'LineString', coordinates: runs[0]! } : { type: 'MultiLineString', coordinates: runs };
}
