/**
 * Turn restriction relations: kinds, members, modes (restriction:hgv, except=*), malformed ones,
 * on hand-written relations and on the real Vancouver extract
 * (../shared/data/osm/pelias-vancouver_canada.osm.pbf, © OpenStreetMap contributors, ODbL).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '../support/paths.ts';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';
import type { OsmMember, OsmRelation, OsmTags } from '../../ingest/osm/pbf-primitive-block.ts';
import type { TurnRestriction } from '../../ingest/roads/way-profile.ts';
import { turnRestriction, turnRestrictions } from '../../ingest/roads/way-tags.ts';

const from = (ref: number): OsmMember => ({ type: 'way', ref, role: 'from' });
const to = (ref: number): OsmMember => ({ type: 'way', ref, role: 'to' });
const viaNode = (ref: number): OsmMember => ({ type: 'node', ref, role: 'via' });
const viaWay = (ref: number): OsmMember => ({ type: 'way', ref, role: 'via' });
const STANDARD = [from(1), viaNode(10), to(2)];
const rel = (tags: OsmTags, members: OsmMember[] = STANDARD, id = 99): OsmRelation => ({ id, tags, members });

describe('turnRestriction kinds and modes', () => {
  it.each([
    ['no_left_turn', 'no'], ['no_right_turn', 'no'], ['no_straight_on', 'no'], ['no_u_turn', 'no'], ['no_entry', 'no'],
    ['no_exit', 'no'], ['only_left_turn', 'only'], ['only_right_turn', 'only'], ['only_straight_on', 'only'],
    ['only_u_turn', 'only'],
  ] as const)('restriction=%s → %s', (value, kind) => {
    expect(turnRestriction(rel({ type: 'restriction', restriction: value }))).toEqual({
      id: 99, kind, from: 1, via: { node: 10 }, to: 2, modes: ['auto', 'truck', 'bicycle'],
    });
  });

  it.each([
    [{ restriction: 'no_left_turn', except: 'bicycle' }, ['auto', 'truck']],
    [{ restriction: 'no_left_turn', except: 'psv' }, ['auto', 'truck', 'bicycle']],
    [{ restriction: 'no_left_turn', except: 'psv;bicycle' }, ['auto', 'truck']],
    [{ restriction: 'no_left_turn', except: 'hgv; bicycle' }, ['auto']],
    [{ restriction: 'no_left_turn', except: 'motorcar' }, ['truck', 'bicycle']],
    [{ restriction: 'no_left_turn', except: 'motor_vehicle' }, ['bicycle']],
    [{ 'restriction:hgv': 'no_right_turn' }, ['truck']],
    [{ 'restriction:bicycle': 'no_left_turn' }, ['bicycle']],
    [{ 'restriction:motorcar': 'no_left_turn', 'restriction:hgv': 'no_left_turn' }, ['auto', 'truck']],
    [{ 'restriction:motor_vehicle': 'only_straight_on' }, ['auto', 'truck']],
  ] as Array<[OsmTags, string[]]>)('%j → modes %j', (tags, modes) => {
    const r = turnRestriction(rel({ type: 'restriction', ...tags }));
    expect(r && 'modes' in r ? r.modes : r).toEqual(modes);
  });

  it('reads type=restriction:hgv relations for trucks only', () => {
    expect(turnRestriction(rel({ type: 'restriction:hgv', 'restriction:hgv': 'no_left_turn' }))).toMatchObject({ kind: 'no', modes: ['truck'] });
    expect(turnRestriction(rel({ type: 'restriction:hgv', restriction: 'only_right_turn' }))).toMatchObject({ kind: 'only', modes: ['truck'] });
  });

  it.each([
    ['not a restriction', { type: 'multipolygon' }],
    ['no type', { restriction: 'no_left_turn' }],
    ['excepts every mode it binds', { type: 'restriction', restriction: 'no_left_turn', except: 'bicycle;motor_vehicle' }],
    ['for buses only', { type: 'restriction:psv', 'restriction:psv': 'no_left_turn' }],
    ['restriction:psv only', { type: 'restriction', 'restriction:psv': 'no_left_turn' }],
    ['time-dependent (hour_on)', { type: 'restriction', restriction: 'no_left_turn', hour_on: '07:00', hour_off: '09:00' }],
    ['time-dependent (day_on)', { type: 'restriction', restriction: 'no_left_turn', day_on: 'Monday', day_off: 'Friday' }],
    ['conditional only', { type: 'restriction', 'restriction:conditional': 'no_left_turn @ (Mo-Fr 07:00-09:00)' }],
  ] as Array<[string, OsmTags]>)('null: %s', (_what, tags) => {
    expect(turnRestriction(rel(tags))).toBeNull();
  });
});

describe('turnRestriction members', () => {
  it('reads via ways in order', () => {
    expect(turnRestriction(rel({ type: 'restriction', restriction: 'no_u_turn' }, [from(1), viaWay(5), viaWay(6), to(1)]))).toEqual({
      id: 99, kind: 'no', from: 1, via: { ways: [5, 6] }, to: 1, modes: ['auto', 'truck', 'bicycle'],
    });
  });

  it('splits no_entry with several from ways and no_exit with several to ways', () => {
    const entry = rel({ type: 'restriction', restriction: 'no_entry' }, [from(1), from(3), viaNode(10), to(2)]);
    expect(turnRestrictions(entry)).toEqual([
      { id: 99, kind: 'no', from: 1, via: { node: 10 }, to: 2, modes: ['auto', 'truck', 'bicycle'] },
      { id: 99, kind: 'no', from: 3, via: { node: 10 }, to: 2, modes: ['auto', 'truck', 'bicycle'] },
    ]);
    expect(turnRestriction(entry)).toEqual({ error: 'no_entry with 2 from/to pairs: use turnRestrictions' });
    const exit = rel({ type: 'restriction', restriction: 'no_exit' }, [from(1), viaNode(10), to(2), to(4)]);
    expect((turnRestrictions(exit) as unknown[]).length).toBe(2);
  });

  it.each([
    ['no from member', [viaNode(10), to(2)], 'no from member'],
    ['no to member', [from(1), viaNode(10)], 'no to member'],
    ['no via member', [from(1), to(2)], 'no via member'],
    ['to without a role', [from(1), viaNode(10), { type: 'way', ref: 2, role: '' }], 'no to member'],
    ['from is a node', [{ type: 'node', ref: 1, role: 'from' }, viaNode(10), to(2)], 'from/to member node 1 is not a way'],
    ['to is a relation', [from(1), viaNode(10), { type: 'relation', ref: 7, role: 'to' }], 'from/to member relation 7 is not a way'],
    ['two via nodes', [from(1), viaNode(10), viaNode(11), to(2)], '2 via nodes'],
    ['via node and way', [from(1), viaNode(10), viaWay(5), to(2)], 'via members mix nodes and ways'],
    ['via relation', [from(1), { type: 'relation', ref: 8, role: 'via' }, to(2)], 'via member relation 8 is a relation'],
  ] as Array<[string, OsmMember[], string]>)('%s', (_what, members, error) => {
    expect(turnRestriction(rel({ type: 'restriction', restriction: 'no_left_turn' }, members))).toEqual({ error });
  });

  it.each([
    ['several from ways on an only_', 'only_straight_on', [from(1), from(3), viaNode(10), to(2)], '2 from ways for only_straight_on'],
    ['several to ways on an only_', 'only_left_turn', [from(1), viaNode(10), to(2), to(4)], '2 to ways for only_left_turn'],
    ['several from ways on a no_left_turn', 'no_left_turn', [from(1), from(3), viaNode(10), to(2)], '2 from ways for no_left_turn'],
    ['an unknown value', 'no_parking', STANDARD, 'unknown restriction value "no_parking"'],
  ] as Array<[string, string, OsmMember[], string]>)('error: %s', (_what, restriction, members, error) => {
    expect(turnRestriction(rel({ type: 'restriction', restriction }, members))).toEqual({ error });
  });

  it.each([
    ['no restriction tag at all', { type: 'restriction' }, 'no restriction tag'],
    ['restriction:hgv type without its tag', { type: 'restriction:hgv' }, 'no restriction:hgv tag'],
    ['conflicting mode values', { type: 'restriction', 'restriction:hgv': 'no_left_turn', 'restriction:bicycle': 'no_right_turn' },
      'several restriction values (restriction:hgv=no_left_turn, restriction:bicycle=no_right_turn)'],
  ] as Array<[string, OsmTags, string]>)('error: %s', (_what, tags, error) => {
    expect(turnRestriction(rel(tags))).toEqual({ error });
  });
});

describe('the Vancouver extract', () => {
  const results = new Map<number, ReturnType<typeof turnRestriction>>();
  let restrictionRelations = 0;

  beforeAll(async () => {
    await readOsm(sharedData('osm', 'pelias-vancouver_canada.osm.pbf'), {
      relation(r) {
        if (r.tags.type?.startsWith('restriction')) restrictionRelations++;
        const res = turnRestriction(r);
        if (res !== null) results.set(r.id, res);
      },
    });
  });

  it('reads every restriction relation: 202 usable, 5 malformed (members clipped by the extract), 22 time-dependent', () => {
    expect(restrictionRelations).toBe(229);
    const ok = [...results.values()].filter((r): r is TurnRestriction => r !== null && !('error' in r));
    const errors = [...results.entries()].filter(([, r]) => r !== null && 'error' in r);
    expect(ok.length).toBe(202);
    expect(ok.filter((r) => r.kind === 'only').length).toBe(52);
    expect(errors.map(([id, r]) => [id, r])).toEqual([
      [1647895, { error: 'no from member' }],
      [1647898, { error: 'no from member' }],
      [1647899, { error: 'no to member' }],
      [1660226, { error: 'no to member' }],
      [1660236, { error: 'no to member' }],
    ]);
    expect(restrictionRelations - results.size).toBe(22);
  });

  it.each([
    [215237, { kind: 'no', from: 117025314, via: { node: 52938477 }, to: 39368203, modes: ['auto', 'truck', 'bicycle'] }],
    [215238, { kind: 'only', from: 39368203, via: { node: 52938477 }, to: 50849314, modes: ['auto', 'truck', 'bicycle'] }],
    [1660223, { kind: 'no', from: 289497052, via: { node: 29207967 }, to: 71359354, modes: ['auto', 'truck'] }],
    [1110813, { kind: 'only', from: 50843613, via: { node: 38891274 }, to: 50842220, modes: ['auto', 'truck'] }],
    [2314990, { kind: 'only', from: 119721407, via: { ways: [173318727, 4755943] }, to: 23593753, modes: ['auto', 'truck', 'bicycle'] }],
  ])('relation %i', (id, expected) => {
    expect(results.get(id)).toEqual({ id, ...expected });
  });

  it('leaves the hour_on/day_on restrictions out', () => {
    expect(results.has(414467)).toBe(false);
    expect(results.has(414531)).toBe(false);
  });
});
