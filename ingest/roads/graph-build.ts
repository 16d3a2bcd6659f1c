/**
 * Builds the road graph from routable ways: graph nodes are the way ends and the nodes shared by
 * two ways (or used twice by one), the nodes between them become shape points of the segment,
 * and each segment gives one directed edge per direction some mode may use. A way is cut where
 * the input lacks one of its nodes (extract boundaries): its runs of known nodes stay.
 * Typed arrays throughout (no object per node, segment or edge).
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { uint32List, float64List } from '../../lib/growable-array.ts';
import { EDGE_FLAG, NO_EDGE, fromMicroDegrees, newEdgeArrays, type EdgeLayout, type GraphArrays } from '../../engines/routing/graph-format.ts';
import { buildStringTable, encodeProfiles, type EncodedProfiles } from './graph-attributes.ts';
import { lowerBound } from '../../lib/sorted-search.ts';
import { MISSING_COORDINATE, type RoadWays } from './read-ways.ts';
import type { WayProfile } from './way-profile.ts';

/** Speed assumed for a ferry without duration=* whose profile gives no speed either. */
export const FALLBACK_FERRY_KMH = 10;

export interface RoadGraphBuild {
  arrays: GraphArrays;
  /** OSM id of each graph node: ascending, graph node i has the i-th smallest id. */
  nodeOsmIds: Float64Array;
  /** The input's ways (RoadWays order) and their edges: wayEdges[wayEdgeStart[w] .. wayEdgeStart[w+1]). */
  wayIds: Float64Array;
  wayEdgeStart: Uint32Array;
  wayEdges: Uint32Array;
  stats: { ways: number; segments: number; nodes: number; edges: number; shapePoints: number; missingNodes: number };
}

/** The graph node of an OSM node, or -1 when it is not one (not routable, or a shape point). */
export function graphNodeOf(build: RoadGraphBuild, osmNodeId: number): number {
  const i = lowerBound(build.nodeOsmIds, osmNodeId);
  return i < build.nodeOsmIds.length && build.nodeOsmIds[i] === osmNodeId ? i : -1;
}

/** The directed edges of an OSM way, along the way (empty when the way is not in the graph). */
export function edgesOfWay(build: RoadGraphBuild, osmWayId: number): Uint32Array {
  // Ways come in file order, which PBF extracts keep sorted by id; otherwise search linearly.
  const ids = build.wayIds;
  let w = lowerBound(ids, osmWayId);
  if (w >= ids.length || ids[w] !== osmWayId) w = ids.indexOf(osmWayId);
  if (w < 0) return new Uint32Array(0);
  return build.wayEdges.subarray(build.wayEdgeStart[w]!, build.wayEdgeStart[w + 1]!);
}

function segmentLength(lng: Int32Array, lat: Int32Array, refs: Uint32Array, from: number, to: number): number {
  let length = 0;
  for (let k = from; k < to; k++) {
    const a = refs[k]!;
    const b = refs[k + 1]!;
    length += haversineMetres(fromMicroDegrees(lng[a]!), fromMicroDegrees(lat[a]!), fromMicroDegrees(lng[b]!), fromMicroDegrees(lat[b]!));
  }
  return length;
}

/** Marks the graph nodes; returns the graph node of each input node (NO_EDGE when none). */
function numberGraphNodes(ways: RoadWays, routable: (w: number) => boolean): { graphNode: Uint32Array; count: number } {
  const { nodeLng, wayRefs, wayRefStart } = ways;
  const uses = new Uint8Array(nodeLng.length);
  const end = new Uint8Array(nodeLng.length);
  for (let w = 0; w < ways.wayIds.length; w++) {
    if (!routable(w)) continue;
    forEachRun(wayRefs, wayRefStart[w]!, wayRefStart[w + 1]!, nodeLng, (a, b) => {
      end[wayRefs[a]!] = 1;
      end[wayRefs[b]!] = 1;
      for (let k = a; k <= b; k++) if (uses[wayRefs[k]!]! < 2) uses[wayRefs[k]!]!++;
    });
  }
  const graphNode = new Uint32Array(nodeLng.length).fill(NO_EDGE);
  let count = 0;
  for (let i = 0; i < nodeLng.length; i++) if (end[i] || uses[i]! >= 2) graphNode[i] = count++;
  return { graphNode, count };
}

/** Calls visit(a, b) for each run refs[a..b] (inclusive, b > a) of nodes with coordinates. */
function forEachRun(refs: Uint32Array, start: number, stop: number, lng: Int32Array, visit: (a: number, b: number) => void): void {
  let k = start;
  while (k < stop) {
    while (k < stop && lng[refs[k]!] === MISSING_COORDINATE) k++;
    const a = k;
    while (k < stop && lng[refs[k]!] !== MISSING_COORDINATE) k++;
    if (k - a >= 2) visit(a, k - 1);
  }
}

export function buildRoadGraph(ways: RoadWays): RoadGraphBuild {
  const { nodeLng, nodeLat, wayRefs, wayRefStart, wayProfile, profiles } = ways;
  const strings = buildStringTable(profiles);
  const bits = encodeProfiles(profiles, strings);
  const routable = (w: number) => (bits.forward[wayProfile[w]!]! | bits.backward[wayProfile[w]!]!) !== 0;
  const { graphNode, count: nodeCount } = numberGraphNodes(ways, routable);

  // Segments (one shape each) and directed edges, in the order of the ways.
  const shape = uint32List(1 << 16);
  const segShapeStart = uint32List();
  const segShapeCount = uint32List();
  const segLength = float64List();
  const segFerrySeconds = float64List();
  const edgeSource = uint32List();
  const edgeTarget = uint32List();
  const edgeSegment = uint32List();
  const edgeBackward = uint32List();
  const wayEdgeStart = new Uint32Array(ways.wayIds.length + 1);
  for (let w = 0; w < ways.wayIds.length; w++) {
    wayEdgeStart[w] = edgeSource.length;
    if (!routable(w)) continue;
    const p = wayProfile[w]!;
    const firstSegment = segLength.length;
    forEachRun(wayRefs, wayRefStart[w]!, wayRefStart[w + 1]!, nodeLng, (a, b) => {
      let from = a;
      for (let k = a + 1; k <= b; k++) {
        const node = wayRefs[k]!;
        if (graphNode[node] === NO_EDGE) {
          shape.push(nodeLng[node]!);
          shape.push(nodeLat[node]!);
          continue;
        }
        const s = segLength.length;
        segShapeStart.push(shape.length / 2 - (k - from - 1));
        segShapeCount.push(k - from - 1);
        segLength.push(segmentLength(nodeLng, nodeLat, wayRefs, from, k));
        segFerrySeconds.push(0);
        const u = graphNode[wayRefs[from]!]!;
        const v = graphNode[node]!;
        if (bits.forward[p]) pushEdge(u, v, s, 0);
        if (bits.backward[p]) pushEdge(v, u, s, 1);
        from = k;
      }
    });
    if (profiles[p]!.ferry) shareFerryTime(profiles[p]!, segLength.view(), segFerrySeconds.view(), firstSegment);
  }
  wayEdgeStart[ways.wayIds.length] = edgeSource.length;

  function pushEdge(u: number, v: number, segment: number, backward: number): void {
    edgeSource.push(u);
    edgeTarget.push(v);
    edgeSegment.push(segment);
    edgeBackward.push(backward);
  }

  const nodeOsmIds = new Float64Array(nodeCount);
  const outLng = new Int32Array(nodeCount);
  const outLat = new Int32Array(nodeCount);
  for (let i = 0; i < graphNode.length; i++) {
    const g = graphNode[i]!;
    if (g === NO_EDGE) continue;
    nodeOsmIds[g] = ways.nodeIds[i]!;
    outLng[g] = nodeLng[i]!;
    outLat[g] = nodeLat[i]!;
  }

  const segments: Segments = {
    shapeStart: segShapeStart.view(),
    shapeCount: segShapeCount.view(),
    length: segLength.view(),
    ferrySeconds: segFerrySeconds.view(),
  };
  const edgeWay = new Uint32Array(edgeSource.length);
  for (let w = 0; w < ways.wayIds.length; w++) edgeWay.fill(w, wayEdgeStart[w]!, wayEdgeStart[w + 1]!);

  const { arrays, position } = layoutEdges({
    nodeCount,
    source: edgeSource.view(),
    target: edgeTarget.view(),
    segment: edgeSegment.view(),
    backward: edgeBackward.view(),
    profileOf: (e) => wayProfile[edgeWay[e]!]!,
  }, bits, segments);
  return {
    arrays: {
      nodeLng: outLng,
      nodeLat: outLat,
      ...arrays,
      shapeCoords: new Int32Array(shape.finish().buffer),
      stringBytes: strings.bytes,
      stringOffsets: strings.offsets,
      // Filled by applyTurnRestrictions (restriction-build.ts), which needs the edges first.
      turnInEdge: new Uint32Array(0),
      turnOutEdge: new Uint32Array(0),
      turnModes: new Uint8Array(0),
    },
    nodeOsmIds,
    wayIds: ways.wayIds,
    wayEdgeStart,
    wayEdges: position,
    stats: {
      ways: ways.wayIds.length,
      segments: segments.length.length,
      nodes: nodeCount,
      edges: edgeSource.length,
      shapePoints: shape.length / 2,
      missingNodes: ways.missingNodes,
    },
  };
}

/** A ferry's crossing time spread over its segments by length. */
function shareFerryTime(profile: WayProfile, length: Float64Array, seconds: Float64Array, first: number): void {
  let total = 0;
  for (let s = first; s < length.length; s++) total += length[s]!;
  const segments = length.length - first;
  for (let s = first; s < length.length; s++) {
    if (profile.ferrySeconds !== null) {
      seconds[s] = total > 0 ? (profile.ferrySeconds * length[s]!) / total : profile.ferrySeconds / segments;
    } else {
      const kmh = profile.speedKmh.auto > 0 ? profile.speedKmh.auto : profile.speedKmh.truck > 0 ? profile.speedKmh.truck : FALLBACK_FERRY_KMH;
      seconds[s] = (length[s]! * 3.6) / kmh;
    }
  }
}

interface Segments {
  shapeStart: Uint32Array;
  shapeCount: Uint32Array;
  length: Float64Array;
  ferrySeconds: Float64Array;
}

interface EdgeList {
  nodeCount: number;
  source: Uint32Array;
  target: Uint32Array;
  segment: Uint32Array;
  backward: Uint32Array;
  profileOf(edge: number): number;
}

/**
 * Puts the edges in CSR order (by source node, stable) and fills the per-edge arrays; returns
 * them with each input edge's position.
 */
function layoutEdges(
  edges: EdgeList,
  encoded: EncodedProfiles,
  segments: Segments,
): { arrays: EdgeLayout; position: Uint32Array } {
  const m = edges.source.length;
  const firstEdge = new Uint32Array(edges.nodeCount + 1);
  for (let e = 0; e < m; e++) firstEdge[edges.source[e]! + 1]!++;
  for (let u = 0; u < edges.nodeCount; u++) firstEdge[u + 1]! += firstEdge[u]!;
  const cursor = firstEdge.slice(0, edges.nodeCount);
  const position = new Uint32Array(m);
  for (let e = 0; e < m; e++) position[e] = cursor[edges.source[e]!]!++;

  // edgeGrade is filled by computeEdgeGrades (edge-grades.ts) when a DEM is given.
  const a: EdgeLayout = { firstEdge, ...newEdgeArrays(m) };
  for (let e = 0; e < m; e++) {
    const i = position[e]!;
    const p = edges.profileOf(e);
    const s = edges.segment[e]!;
    const backward = edges.backward[e] === 1;
    a.edgeTarget[i] = edges.target[e]!;
    a.edgeLength[i] = segments.length[s]!;
    a.edgeClass[i] = encoded.roadClass[p]!;
    a.edgeFlags[i] = encoded.flags[p]! | (backward ? EDGE_FLAG.reversed : 0);
    a.edgeAccess[i] = backward ? encoded.backward[p]! : encoded.forward[p]!;
    a.edgeSpeedAuto[i] = encoded.speedAuto[p]!;
    a.edgeSpeedTruck[i] = encoded.speedTruck[p]!;
    a.edgeFerrySeconds[i] = segments.ferrySeconds[s]!;
    a.edgeMaxHeight[i] = encoded.maxHeight[p]!;
    a.edgeMaxWidth[i] = encoded.maxWidth[p]!;
    a.edgeMaxLength[i] = encoded.maxLength[p]!;
    a.edgeMaxWeight[i] = encoded.maxWeight[p]!;
    a.edgeMaxAxleLoad[i] = encoded.maxAxleLoad[p]!;
    a.edgeName[i] = encoded.name[p]!;
    a.edgeRef[i] = encoded.ref[p]!;
    a.edgeShapeStart[i] = segments.shapeStart[s]!;
    a.edgeShapeCount[i] = segments.shapeCount[s]!;
    // Both directions of a segment are pushed one after the other: forward, then backward.
    if (backward && e > 0 && edges.segment[e - 1] === s && edges.backward[e - 1] === 0) {
      const j = position[e - 1]!;
      a.edgeReverse[i] = j;
      a.edgeReverse[j] = i;
    }
  }
  return { arrays: a, position };
}
