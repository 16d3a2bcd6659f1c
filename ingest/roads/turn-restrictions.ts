/**
 * type=restriction relations → TurnRestriction: no_* and only_* turns from a way, via a node or
 * ways, to a way, for the vehicle modes they bind (restriction:hgv, type=restriction:hgv and
 * except=* narrow them). Pedestrians are never bound. Time-dependent restrictions
 * (restriction:conditional, day_on/hour_on) are not modelled and read as none.
 */
import type { OsmMember, OsmRelation, OsmTags } from '../osm/pbf-primitive-block.ts';
import type { Mode, TurnRestriction } from './way-profile.ts';

export type RestrictionResult = TurnRestriction | { error: string } | null;

const NO = new Set(['no_left_turn', 'no_right_turn', 'no_straight_on', 'no_u_turn', 'no_entry', 'no_exit']);
const ONLY = new Set(['only_left_turn', 'only_right_turn', 'only_straight_on', 'only_u_turn']);

/** Restrictions bind vehicles: cars, trucks and bicycles (bicycles are vehicles in Canadian traffic law). */
const VEHICLES: readonly Mode[] = ['auto', 'truck', 'bicycle'];

/** OSM vehicle keys (restriction:KEY, except=KEY) → our modes; psv, bus, moped … are none of ours. */
const KEY_MODES: Record<string, readonly Mode[]> = {
  motorcar: ['auto'], motor_vehicle: ['auto', 'truck'], vehicle: ['auto', 'truck', 'bicycle'],
  hgv: ['truck'], goods: ['truck'], bicycle: ['bicycle'], foot: ['pedestrian'],
};

interface Scope {
  value: string;
  modes: Mode[];
}

/** Which restriction value applies to which modes, or an error, or null (not a restriction we use). */
function scope(tags: OsmTags): Scope | { error: string } | null {
  const type = tags.type;
  if (type === undefined || (type !== 'restriction' && !type.startsWith('restriction:'))) return null;
  if (tags.day_on !== undefined || tags.hour_on !== undefined) return null;
  if (type !== 'restriction') {
    const key = type.slice('restriction:'.length);
    const value = tags[type] ?? tags.restriction;
    if (value === undefined) return tags[`${type}:conditional`] !== undefined ? null : { error: `no ${type} tag` };
    return { value, modes: [...(KEY_MODES[key] ?? [])] };
  }
  if (tags.restriction !== undefined) return { value: tags.restriction, modes: [...VEHICLES] };
  const specific = Object.keys(tags).filter((k) => k.startsWith('restriction:') && !k.endsWith(':conditional'));
  if (specific.length === 0) {
    return tags['restriction:conditional'] !== undefined ? null : { error: 'no restriction tag' };
  }
  const values = new Set(specific.map((k) => tags[k]!));
  if (values.size > 1) return { error: `several restriction values (${specific.map((k) => `${k}=${tags[k]}`).join(', ')})` };
  const modes = new Set(specific.flatMap((k) => KEY_MODES[k.slice('restriction:'.length)] ?? []));
  return { value: [...values][0]!, modes: [...modes] };
}

function exceptModes(except: string | undefined): Set<Mode> {
  const out = new Set<Mode>();
  for (const key of except?.split(';') ?? []) for (const m of KEY_MODES[key.trim()] ?? []) out.add(m);
  return out;
}

const describe = (m: OsmMember): string => `${m.type} ${m.ref}`;

/**
 * Every restriction a relation holds: one per from way (no_entry may have several) and per to way
 * (no_exit may have several); all share the relation id. null when the relation is not a turn
 * restriction for any of our modes; {error} naming the reason when it is malformed.
 */
export function turnRestrictions(relation: OsmRelation): TurnRestriction[] | { error: string } | null {
  const s = scope(relation.tags);
  if (s === null || 'error' in s) return s;
  const except = exceptModes(relation.tags.except);
  const modes = s.modes.filter((m) => !except.has(m));
  if (modes.length === 0) return null;
  const value = s.value.trim();
  const kind = NO.has(value) ? 'no' : ONLY.has(value) ? 'only' : null;
  if (kind === null) return { error: `unknown restriction value "${value}"` };

  const byRole = (role: string) => relation.members.filter((m) => m.role === role);
  const from = byRole('from'), to = byRole('to'), via = byRole('via');
  if (from.length === 0) return { error: 'no from member' };
  if (to.length === 0) return { error: 'no to member' };
  if (via.length === 0) return { error: 'no via member' };
  const notWay = [...from, ...to].find((m) => m.type !== 'way');
  if (notWay) return { error: `from/to member ${describe(notWay)} is not a way` };
  if (from.length > 1 && !(kind === 'no' && value === 'no_entry')) return { error: `${from.length} from ways for ${value}` };
  if (to.length > 1 && !(kind === 'no' && value === 'no_exit')) return { error: `${to.length} to ways for ${value}` };

  const viaNodes = via.filter((m) => m.type === 'node');
  const viaWays = via.filter((m) => m.type === 'way');
  if (viaNodes.length + viaWays.length !== via.length) return { error: `via member ${describe(via.find((m) => m.type === 'relation')!)} is a relation` };
  if (viaNodes.length > 0 && viaWays.length > 0) return { error: 'via members mix nodes and ways' };
  if (viaNodes.length > 1) return { error: `${viaNodes.length} via nodes` };
  const viaOf: TurnRestriction['via'] = viaNodes.length === 1 ? { node: viaNodes[0]!.ref } : { ways: viaWays.map((m) => m.ref) };

  const out: TurnRestriction[] = [];
  for (const f of from) for (const t of to) out.push({ id: relation.id, kind, from: f.ref, via: viaOf, to: t.ref, modes: [...modes] });
  return out;
}

/** A relation holding exactly one restriction; a no_entry/no_exit with several from/to ways is read with turnRestrictions. */
export function turnRestriction(relation: OsmRelation): RestrictionResult {
  const all = turnRestrictions(relation);
  if (all === null || 'error' in all) return all;
  if (all.length > 1) return { error: `${relation.tags.restriction ?? 'restriction'} with ${all.length} from/to pairs: use turnRestrictions` };
  return all[0]!;
}
