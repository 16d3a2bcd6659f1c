/**
 * The routable ways of an OSM file and the coordinates of their nodes, in typed arrays (no
 * object per way or node, so a national extract fits): pass 1 reads the ways and keeps those
 * with a profile, pass 2 the coordinates of the nodes they use (same idea as ../osm/node-store.ts:
 * sorted unique Float64 ids, a moving cursor for files sorted by id, binary search otherwise).
 */
import { float64List, uint32List } from '../../lib/growable-array.ts';
import { lowerBound } from '../../lib/sorted-search.ts';
import { toMicroDegrees } from '../../engines/routing/graph-format.ts';
import { readOsmFile } from '../osm/read-osm-file.ts';
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import type { WayProfile } from './way-profile.ts';

/** nodeLng/nodeLat of a node the file did not hold. */
export const MISSING_COORDINATE = -0x80000000;

export interface RoadWays {
  /** Sorted unique OSM ids of the nodes the ways use, with their micro-degree coordinates. */
  nodeIds: Float64Array;
  nodeLng: Int32Array;
  nodeLat: Int32Array;
  /** Ways in input order: way i uses wayRefs[wayRefStart[i] .. wayRefStart[i+1]) (indexes in nodeIds). */
  wayIds: Float64Array;
  wayRefStart: Uint32Array;
  wayRefs: Uint32Array;
  /** Index in `profiles` of each way (equal profiles are stored once). */
  wayProfile: Uint32Array;
  profiles: WayProfile[];
  /** Referenced nodes the input lacked (extract boundaries). */
  missingNodes: number;
}

/** Collects ways (addWay …), then node coordinates (seal, addNode …), then finish(). */
export class RoadWaysCollector {
  private readonly wayIds = float64List();
  private readonly refStart = uint32List();
  private readonly refs = float64List(1 << 16);
  private readonly profileOfWay = uint32List();
  private readonly profiles: WayProfile[] = [];
  private readonly profileIndex = new Map<string, number>();
  private nodeIds = new Float64Array(0);
  private nodeLng = new Int32Array(0);
  private nodeLat = new Int32Array(0);
  private cursor = 0;
  private lastId = -Infinity;
  private sealed = false;

  addWay(id: number, refs: readonly number[], profile: WayProfile): void {
    if (this.sealed) throw new Error('RoadWaysCollector: addWay after seal');
    const start = this.refs.length;
    let last = NaN;
    for (const ref of refs) {
      // A node repeated back to back is one point.
      if (ref !== last) this.refs.push(ref);
      last = ref;
    }
    if (this.refs.length - start < 2) {
      this.refs.length = start;
      return;
    }
    const key = JSON.stringify(profile);
    let p = this.profileIndex.get(key);
    if (p === undefined) {
      p = this.profiles.length;
      this.profiles.push(profile);
      this.profileIndex.set(key, p);
    }
    this.wayIds.push(id);
    this.refStart.push(start);
    this.profileOfWay.push(p);
  }

  /** Ends the ways: from now on, nodes are offered. */
  seal(): void {
    this.sealed = true;
    const all = this.refs.view().slice().sort();
    let n = 0;
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i]!;
    this.nodeIds = all.slice(0, n);
    this.nodeLng = new Int32Array(n).fill(MISSING_COORDINATE);
    this.nodeLat = new Int32Array(n).fill(MISSING_COORDINATE);
  }

  /** Offers a node of the file; kept when a way uses it. */
  addNode(id: number, lng: number, lat: number): void {
    const ids = this.nodeIds;
    let i: number;
    if (id > this.lastId) {
      i = this.cursor;
      while (i < ids.length && ids[i]! < id) i++;
    } else {
      i = lowerBound(ids, id);
    }
    this.cursor = i;
    this.lastId = id;
    if (i < ids.length && ids[i] === id) {
      this.nodeLng[i] = toMicroDegrees(lng);
      this.nodeLat[i] = toMicroDegrees(lat);
    }
  }

  get wantedNodes(): number {
    return this.nodeIds.length;
  }

  finish(): RoadWays {
    if (!this.sealed) this.seal();
    const refs = this.refs.view();
    const wayRefs = new Uint32Array(refs.length);
    for (let i = 0; i < refs.length; i++) wayRefs[i] = lowerBound(this.nodeIds, refs[i]!);
    this.refs.clear();
    const wayRefStart = new Uint32Array(this.refStart.length + 1);
    wayRefStart.set(this.refStart.view());
    wayRefStart[this.refStart.length] = wayRefs.length;
    let missingNodes = 0;
    for (let i = 0; i < this.nodeLng.length; i++) if (this.nodeLng[i] === MISSING_COORDINATE) missingNodes++;
    return {
      nodeIds: this.nodeIds,
      nodeLng: this.nodeLng,
      nodeLat: this.nodeLat,
      wayIds: this.wayIds.finish(),
      wayRefStart,
      wayRefs,
      wayProfile: this.profileOfWay.finish(),
      profiles: this.profiles,
      missingNodes,
    };
  }
}

/** Reads the routable ways of an OSM file (PBF or XML): those `profileOf` gives a profile. */
export async function readRoadWays(pbfPath: string, profileOf: (tags: OsmTags) => WayProfile | null): Promise<RoadWays> {
  const collector = new RoadWaysCollector();
  await readOsmFile(pbfPath, {
    way(way) {
      const profile = profileOf(way.tags);
      if (profile) collector.addWay(way.id, way.refs, profile);
    },
  });
  collector.seal();
  if (collector.wantedNodes > 0) {
    await readOsmFile(pbfPath, { node: (node) => collector.addNode(node.id, node.lng, node.lat) });
  }
  return collector.finish();
}
