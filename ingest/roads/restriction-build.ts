/**
 * Turn restriction relations in the road graph's terms. A via-node restriction becomes, at the
 * via graph node, pairs of (incoming edge of the `from` way ending there, outgoing edge of the
 * `to` way starting there): `no` forbids those pairs, `only` forbids every other outgoing edge of
 * the node after those incoming edges. Each pair keeps a mask of the modes it binds that may use
 * both of its edges.
 * Via-way restrictions are not applied yet: they are counted and reported, like every
 * restriction that cannot be placed on the graph (with the reason).
 */
import { modeBit, type GraphArrays } from '../../engines/routing/graph-format.ts';
import { readOsmFile } from '../osm/read-osm-file.ts';
import { edgesOfWay, graphNodeOf, type RoadGraphBuild } from './graph-build.ts';
import { turnRestrictions } from './turn-restrictions.ts';
import type { TurnRestriction } from './way-profile.ts';

/** A relation (or one from/to pair of it) left out of the graph, and why. */
export interface RestrictionReport {
  relation: number;
  reason: string;
}

export interface RestrictionRelations {
  /** The usable restrictions: one per from/to pair (turnRestrictions). */
  restrictions: TurnRestriction[];
  /** Restriction relations the tag model refused. */
  malformed: RestrictionReport[];
  /** Relations holding at least one usable restriction. */
  usableRelations: number;
}

export interface RestrictionBuildStats {
  /** Usable restrictions (from/to pairs) offered. */
  restrictions: number;
  /** Placed on the graph: via-node ones whose ways meet at the via node. */
  applied: number;
  /** Via-way restrictions: not applied (reported). */
  viaWayNotApplied: number;
  /** Via-node ones that could not be placed (reported with the reason). */
  unplaceable: number;
  /** Rows of the graph's turn table. */
  forbiddenPairs: number;
}

export interface TurnRestrictionBuild {
  /** The graph's arrays with the turn table filled. */
  arrays: GraphArrays;
  stats: RestrictionBuildStats;
  /** Every restriction not applied, with its reason. */
  reports: RestrictionReport[];
}

/** Reads the turn restriction relations of an OSM file (PBF or XML) through the tag model. */
export async function readTurnRestrictions(osmPath: string): Promise<RestrictionRelations> {
  const out: RestrictionRelations = { restrictions: [], malformed: [], usableRelations: 0 };
  await readOsmFile(osmPath, {
    relation(relation) {
      const result = turnRestrictions(relation);
      if (result === null) return;
      if ('error' in result) {
        out.malformed.push({ relation: relation.id, reason: result.error });
        return;
      }
      out.usableRelations++;
      out.restrictions.push(...result);
    },
  });
  return out;
}

type Placement = { inEdges: number[]; outEdges: number[]; via: number } | { reason: string };

/**
 * The incoming `from` edges and outgoing `to` edges of a via-node restriction that some mode it
 * binds may use (`mask`), or why there are none.
 */
function place(build: RoadGraphBuild, r: TurnRestriction, viaOsmNode: number, mask: number): Placement {
  const fromEdges = Array.from(edgesOfWay(build, r.from));
  if (fromEdges.length === 0) return { reason: `from way ${r.from} is not in the road graph (not routable or not in the input)` };
  const toEdges = Array.from(edgesOfWay(build, r.to));
  if (toEdges.length === 0) return { reason: `to way ${r.to} is not in the road graph (not routable or not in the input)` };
  const via = graphNodeOf(build, viaOsmNode);
  if (via < 0) return { reason: `via node ${viaOsmNode} is not a junction of the road graph: the ways do not meet there` };
  const { firstEdge, edgeTarget, edgeAccess } = build.arrays;
  const leaves = (e: number) => e >= firstEdge[via]! && e < firstEdge[via + 1]!;
  const enters = (e: number) => edgeTarget[e] === via;
  const usable = (e: number) => (edgeAccess[e]! & mask) !== 0;
  const inEdges = fromEdges.filter((e) => enters(e) && usable(e));
  const outEdges = toEdges.filter((e) => leaves(e) && usable(e));
  const modes = r.modes.join('/');
  if (inEdges.length === 0) {
    return fromEdges.some((e) => enters(e) || leaves(e))
      ? { reason: `from way ${r.from} cannot be travelled into via node ${viaOsmNode} by ${modes} (one-way or access)` }
      : { reason: `from way ${r.from} does not meet via node ${viaOsmNode}` };
  }
  if (outEdges.length === 0) {
    return toEdges.some((e) => enters(e) || leaves(e))
      ? { reason: `to way ${r.to} cannot be travelled out of via node ${viaOsmNode} by ${modes} (one-way or access)` }
      : { reason: `to way ${r.to} does not meet via node ${viaOsmNode}` };
  }
  return { inEdges, outEdges, via };
}

/** Places the restrictions on a built graph: returns its arrays with the turn table, stats and reports. */
export function applyTurnRestrictions(build: RoadGraphBuild, restrictions: readonly TurnRestriction[]): TurnRestrictionBuild {
  const stats: RestrictionBuildStats = { restrictions: restrictions.length, applied: 0, viaWayNotApplied: 0, unplaceable: 0, forbiddenPairs: 0 };
  const reports: RestrictionReport[] = [];
  const pairs: { inEdge: number; outEdge: number; mask: number }[] = [];
  const { edgeAccess, firstEdge } = build.arrays;
  // A pair binds only the modes that may use both edges: the others never make that turn.
  const forbid = (inEdge: number, outEdge: number, mask: number) => {
    const modes = mask & edgeAccess[inEdge]! & edgeAccess[outEdge]!;
    if (modes !== 0) pairs.push({ inEdge, outEdge, mask: modes });
  };
  for (const r of restrictions) {
    if (!('node' in r.via)) {
      stats.viaWayNotApplied++;
      reports.push({ relation: r.id, reason: `via ways ${r.via.ways.join(', ')}: via-way restrictions are not applied` });
      continue;
    }
    const mask = r.modes.reduce((m, mode) => m | modeBit(mode), 0);
    const placed = place(build, r, r.via.node, mask);
    if ('reason' in placed) {
      stats.unplaceable++;
      reports.push({ relation: r.id, reason: placed.reason });
      continue;
    }
    stats.applied++;
    for (const inEdge of placed.inEdges) {
      if (r.kind === 'no') {
        for (const outEdge of placed.outEdges) forbid(inEdge, outEdge, mask);
      } else {
        for (let e = firstEdge[placed.via]!; e < firstEdge[placed.via + 1]!; e++) {
          if (!placed.outEdges.includes(e)) forbid(inEdge, e, mask);
        }
      }
    }
  }
  const table = sortedTurnTable(pairs);
  stats.forbiddenPairs = table.turnInEdge.length;
  return { arrays: { ...build.arrays, ...table }, stats, reports };
}

/** The pairs sorted by (in, out), repeats merged by OR-ing their masks. */
function sortedTurnTable(pairs: { inEdge: number; outEdge: number; mask: number }[]): Pick<GraphArrays, 'turnInEdge' | 'turnOutEdge' | 'turnModes'> {
  pairs.sort((a, b) => a.inEdge - b.inEdge || a.outEdge - b.outEdge);
  const turnInEdge: number[] = [];
  const turnOutEdge: number[] = [];
  const turnModes: number[] = [];
  for (const p of pairs) {
    const last = turnInEdge.length - 1;
    if (last >= 0 && turnInEdge[last] === p.inEdge && turnOutEdge[last] === p.outEdge) {
      turnModes[last]! |= p.mask;
    } else {
      turnInEdge.push(p.inEdge);
      turnOutEdge.push(p.outEdge);
      turnModes.push(p.mask);
    }
  }
  return { turnInEdge: Uint32Array.from(turnInEdge), turnOutEdge: Uint32Array.from(turnOutEdge), turnModes: Uint8Array.from(turnModes) };
}
