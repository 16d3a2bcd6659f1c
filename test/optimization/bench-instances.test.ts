/** The benchmark parsers against the facts BKS.json records for every instance (jobs, fleet, demand). */
import { describe, expect, it } from 'vitest';
import { bestKnown, bksTable, groupOf, INSTANCE_CLASSES, listInstances, loadClass, loadInstance, parseLiLim, parseSolomon } from '../support/optimization/instances.ts';

describe('benchmark instances', () => {
  it('lists 56 Solomon, 60 Gehring–Homberger 200 and 56 Li–Lim 100 instances in natural order', () => {
    expect(listInstances('solomon')).toHaveLength(56);
    expect(listInstances('homberger_200')).toHaveLength(60);
    expect(listInstances('li_lim_100')).toHaveLength(56);
    expect(listInstances('homberger_200').slice(0, 3)).toEqual(['c1_2_1', 'c1_2_2', 'c1_2_3']);
    expect(listInstances('solomon')[0]).toBe('C101');
  });

  it('matches BKS.json for every instance: jobs, vehicles, capacity and total demand', () => {
    for (const cls of INSTANCE_CLASSES) {
      for (const inst of loadClass(cls)) {
        const e = bksTable(cls)[inst.name]!;
        const demand = inst.nodes.reduce((s, n) => s + Math.max(0, n.demand), 0);
        expect({ name: inst.name, jobs: inst.nodes.length - 1, vehicles: inst.vehicles, capacity: inst.capacity, demand })
          .toEqual({ name: inst.name, jobs: e.jobs, vehicles: e.vehicles, capacity: e.capacity, demand: e.total_demand });
        if (cls === 'li_lim_100') expect(inst.pairs.length * 2).toBe(inst.nodes.length - 1);
        else expect(inst.pairs).toEqual([]);
      }
    }
  });

  it('reads C101 and lc101 as published', () => {
    const c101 = loadInstance('solomon', 'C101');
    expect(c101.nodes[0]).toEqual({ id: 0, x: 40, y: 50, demand: 0, ready: 0, due: 1236, service: 0 });
    expect(c101.nodes[1]).toEqual({ id: 1, x: 45, y: 68, demand: 10, ready: 912, due: 967, service: 90 });
    const lc101 = loadInstance('li_lim_100', 'lc101');
    expect(lc101.vehicles).toBe(25);
    // Task 1 is the delivery of pickup 11; task 3 the pickup of delivery 75.
    expect(lc101.pairs).toContainEqual([11, 1]);
    expect(lc101.pairs).toContainEqual([3, 75]);
    expect(lc101.nodes[1]!.demand).toBe(-10);
  });

  it('looks up both best-known keys and the Solomon group', () => {
    expect(bestKnown({ name: 'R101', class: 'solomon' })).toEqual({
      vehicles: { cost: bksTable('solomon').R101!.best_known_cost, vehicles: bksTable('solomon').R101!.solved_with_vehicles },
      distance: { cost: bksTable('solomon').R101_distance!.best_known_cost, vehicles: bksTable('solomon').R101_distance!.solved_with_vehicles },
    });
    expect(bestKnown({ name: 'lc101', class: 'li_lim_100' }).distance).toBeNull();
    expect(['C101', 'RC208', 'r2_2_4', 'lrc104', 'lr201'].map(groupOf)).toEqual(['C1', 'RC2', 'R2', 'RC1', 'R2']);
  });

  it('refuses malformed files with a message', () => {
    expect(() => parseSolomon('X\n', 'X', 'solomon')).toThrow(/VEHICLE/);
    expect(() => parseLiLim('2 10 1\n0 0 0 0 0 100 0 0 0\n1 1 1 5 0 50 1 0 2\n2 2 2 -5 0 50 1 3 0\n', 'lc0')).toThrow(/does not name it back/);
  });
});
