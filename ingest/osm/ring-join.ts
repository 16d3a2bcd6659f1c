/**
 * Member ways → closed rings, matched on node ids (never on coordinates): closed ways are rings
 * as they are; open ways are chained end to end, reversed where needed. A chain that comes back
 * to one of its own nodes closes a ring there (rings touching at a node).
 */
export type Position = [number, number];

export interface MemberWay {
  id: number;
  /** 'outer', 'inner'; anything else counts as no role. */
  role: string;
  /** Node ids in way order; null when the source does not hold the way. */
  refs: readonly number[] | null;
  /** [lng, lat] of each ref; null for a node the source does not hold. */
  coords: readonly (Position | null)[];
}

export type RingRole = 'outer' | 'inner' | '';

export interface JoinedRing {
  /** Node ids, first repeated last. */
  refs: number[];
  coords: Position[];
  /** The role its ways share, '' when they have none or disagree. */
  role: RingRole;
  wayIds: number[];
}

interface Segment {
  id: number;
  role: RingRole;
  refs: readonly number[];
  coords: readonly Position[];
}

export function joinRings(members: readonly MemberWay[]): { rings: JoinedRing[] } | { error: string } {
  // the same way listed twice would be walked twice
  const unique = [...new Map(members.map((m) => [m.id, m])).values()];
  if (unique.length === 0) return { error: 'no member ways' };
  const missingWays = unique.filter((m) => !m.refs).map((m) => m.id);
  if (missingWays.length > 0) return { error: `${missing('way', missingWays)} (of ${unique.length} member ways)` };
  const segments: Segment[] = [];
  let firstGap: string | null = null;
  let gaps = 0;
  for (const m of unique) {
    const refs = m.refs!;
    if (refs.length < 2) return { error: `way ${m.id} has ${refs.length} node(s)` };
    if (m.coords.length !== refs.length) return { error: `way ${m.id} has ${refs.length} nodes but ${m.coords.length} coordinates` };
    m.coords.forEach((c, i) => {
      if (c !== null) return;
      firstGap ??= `missing node ${refs[i]} of way ${m.id}`;
      gaps++;
    });
    const role: RingRole = m.role === 'outer' || m.role === 'inner' ? m.role : '';
    segments.push({ id: m.id, role, refs, coords: m.coords as readonly Position[] });
  }
  if (firstGap !== null) return { error: gaps > 1 ? `${firstGap} and ${gaps - 1} more node(s)` : firstGap };

  const rings: JoinedRing[] = [];
  const open: Segment[] = [];
  for (const s of segments) {
    if (s.refs[0] === s.refs[s.refs.length - 1]) rings.push({ refs: [...s.refs], coords: [...s.coords], role: s.role, wayIds: [s.id] });
    else open.push(s);
  }
  const chained = chainOpenWays(open);
  if ('error' in chained) return chained;
  rings.push(...chained.rings);

  for (const ring of rings) {
    if (ring.refs.length < 4 || new Set(ring.refs).size < 3) return { error: `degenerate ring (ways ${ring.wayIds.join(', ')})` };
  }
  return { rings };
}

function chainOpenWays(open: readonly Segment[]): { rings: JoinedRing[] } | { error: string } {
  const byEnd = new Map<number, number[]>();
  const addEnd = (node: number, i: number) => {
    const list = byEnd.get(node);
    if (list) list.push(i);
    else byEnd.set(node, [i]);
  };
  open.forEach((s, i) => {
    addEnd(s.refs[0]!, i);
    addEnd(s.refs[s.refs.length - 1]!, i);
  });
  const used = new Uint8Array(open.length);
  const rings: JoinedRing[] = [];

  for (let start = 0; start < open.length; start++) {
    if (used[start]) continue;
    used[start] = 1;
    const first = open[start]!;
    const refs = [...first.refs];
    const coords = [...first.coords];
    // wayOf[i]: the segment that brought node i (and the edge ending there)
    const wayOf: number[] = refs.map(() => start);
    let positions = indexPositions(refs);
    while (refs[0] !== refs[refs.length - 1]) {
      const end = refs[refs.length - 1]!;
      const next = byEnd.get(end)?.find((i) => !used[i]);
      if (next === undefined) {
        const ids = [...new Set(wayOf)].map((i) => open[i]!.id);
        return { error: `unclosed ring: ways ${ids.join(', ')} end at node ${end}` };
      }
      used[next] = 1;
      const seg = open[next]!;
      const forward = seg.refs[0] === end;
      const n = seg.refs.length;
      for (let k = 1; k < n; k++) {
        const j = forward ? k : n - 1 - k;
        positions.set(seg.refs[j]!, positions.get(seg.refs[j]!) ?? refs.length);
        refs.push(seg.refs[j]!);
        coords.push(seg.coords[j]!);
        wayOf.push(next);
      }
      const back = positions.get(refs[refs.length - 1]!)!;
      if (back > 0 && back < refs.length - 1) {
        // came back to a middle node: the loop from there is a ring of its own
        rings.push(ringOf(refs.splice(back + 1), coords.splice(back + 1), wayOf.splice(back + 1), refs[back]!, coords[back]!, open));
        positions = indexPositions(refs);
      }
    }
    if (refs.length > 1) rings.push(ringOf(refs.slice(1), coords.slice(1), wayOf.slice(1), refs[0]!, coords[0]!, open));
  }
  return { rings };
}

function missing(kind: string, ids: readonly number[]): string {
  const shown = ids.slice(0, 5).join(', ');
  if (ids.length === 1) return `missing ${kind} ${shown}`;
  return `missing ${kind}s ${shown}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`;
}

function indexPositions(refs: readonly number[]): Map<number, number> {
  const at = new Map<number, number>();
  refs.forEach((r, i) => {
    if (!at.has(r)) at.set(r, i);
  });
  return at;
}

/** A ring from the nodes after its start (the last of them is the start again). */
function ringOf(refs: number[], coords: Position[], wayOf: number[], startRef: number, startCoord: Position, open: readonly Segment[]): JoinedRing {
  const ways = [...new Set(wayOf)].map((i) => open[i]!);
  const roles = new Set(ways.map((w) => w.role));
  return {
    refs: [startRef, ...refs],
    coords: [startCoord, ...coords],
    role: roles.size === 1 ? [...roles][0]! : '',
    wayIds: ways.map((w) => w.id),
  };
}
