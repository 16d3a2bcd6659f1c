/**
 * The VRPTW (Solomon, Gehring–Homberger 200) and PDPTW (Li–Lim 100) benchmark instances of
 * vroom-scripts in ../shared/data/vrp, parsed into one neutral shape, with their best-known
 * solutions from the BKS.json files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sharedData } from '../paths.ts';

export type InstanceClass = 'solomon' | 'homberger_200' | 'li_lim_100';
export const INSTANCE_CLASSES: readonly InstanceClass[] = ['solomon', 'homberger_200', 'li_lim_100'];

export interface InstanceNode {
  id: number;
  x: number;
  y: number;
  /** Positive for a VRPTW customer and a Li–Lim pickup, negative for a Li–Lim delivery. */
  demand: number;
  ready: number;
  due: number;
  service: number;
}

export interface Instance {
  name: string;
  class: InstanceClass;
  /** Solomon-style group from the name: C1, C2, R1, R2, RC1, RC2 (also for GH and Li–Lim names). */
  group: string;
  vehicles: number;
  capacity: number;
  /** nodes[i].id === i; node 0 is the depot, its window the route window. */
  nodes: InstanceNode[];
  /** Li–Lim only: [pickup node, delivery node]; empty for VRPTW. */
  pairs: [number, number][];
}

export interface BestKnown {
  cost: number;
  vehicles: number;
}

const ROOTS: Record<InstanceClass, string[]> = {
  solomon: ['VRPTW', 'solomon'],
  homberger_200: ['VRPTW', 'homberger_200'],
  li_lim_100: ['PDPTW', 'li_lim_100'],
};

const benchDir = (...parts: string[]) => sharedData('vrp', 'vroom-scripts', 'benchmarks', ...parts);

/** Instance names of a class, in natural order (C101, C102, ..., c1_2_1, c1_2_2, ..., c1_2_10). */
export function listInstances(cls: InstanceClass): string[] {
  const names = readdirSync(benchDir(...ROOTS[cls])).filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -4));
  return names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }));
}

/** C1, C2, R1, R2, RC1, RC2 from C101, rc2_2_4, lrc104, LR201 ... */
export function groupOf(name: string): string {
  const m = /^l?(rc|r|c)(\d)/i.exec(name);
  if (!m) throw new Error(`no Solomon group in instance name ${name}`);
  return `${m[1]!.toUpperCase()}${m[2]}`;
}

const numbersOf = (line: string) => line.trim().split(/\s+/).filter(Boolean).map(Number);

function toNode(n: number[]): InstanceNode {
  const [id, x, y, demand, ready, due, service] = n as [number, number, number, number, number, number, number];
  return { id, x, y, demand, ready, due, service };
}

/** Solomon format: a VEHICLE block (number, capacity) then a CUSTOMER block of 7-number lines. */
export function parseSolomon(text: string, name: string, cls: InstanceClass): Instance {
  const lines = text.split(/\r?\n/);
  const vIdx = lines.findIndex((l) => /NUMBER\s+CAPACITY/i.test(l));
  if (vIdx < 0) throw new Error(`${name}: no VEHICLE block`);
  const fleetLine = lines.slice(vIdx + 1).find((l) => l.trim() !== '');
  const [vehicles, capacity] = numbersOf(fleetLine ?? '');
  const cIdx = lines.findIndex((l) => /^\s*CUSTOMER\s*$/i.test(l));
  if (cIdx < 0) throw new Error(`${name}: no CUSTOMER block`);
  const nodes = lines.slice(cIdx + 1).map(numbersOf).filter((n) => n.length === 7 && n.every(Number.isFinite)).map(toNode);
  return finish({ name, class: cls, group: groupOf(name), vehicles: vehicles!, capacity: capacity!, nodes, pairs: [] });
}

/**
 * Li–Lim format: "vehicles capacity speed", then "id x y demand ready due service pickup delivery";
 * a pickup names its delivery (delivery index ≠ 0), a delivery names its pickup.
 */
export function parseLiLim(text: string, name: string): Instance {
  const rows = text.split(/\r?\n/).map(numbersOf).filter((n) => n.length > 0);
  const [vehicles, capacity] = rows[0]!;
  const tasks = rows.slice(1).filter((n) => n.length === 9);
  const nodes = tasks.map((n) => toNode(n));
  const pairs: [number, number][] = [];
  for (const t of tasks) {
    const [id, , , , , , , pickup, delivery] = t as [number, number, number, number, number, number, number, number, number];
    if (id === 0) continue;
    if (delivery !== 0) {
      const back = tasks[delivery];
      if (!back || back[7] !== id) throw new Error(`${name}: pickup ${id} names delivery ${delivery}, which does not name it back`);
      pairs.push([id, delivery]);
    } else if (pickup === 0) {
      throw new Error(`${name}: task ${id} is neither a pickup nor a delivery`);
    }
  }
  return finish({ name, class: 'li_lim_100', group: groupOf(name), vehicles: vehicles!, capacity: capacity!, nodes, pairs });
}

function finish(inst: Instance): Instance {
  if (!Number.isInteger(inst.vehicles) || !Number.isInteger(inst.capacity)) throw new Error(`${inst.name}: bad fleet line`);
  inst.nodes.forEach((n, i) => {
    if (n.id !== i) throw new Error(`${inst.name}: node ${i} has id ${n.id}; ids must run 0..n-1`);
  });
  if (inst.nodes.length < 2) throw new Error(`${inst.name}: no customers`);
  return inst;
}

const cache = new Map<string, Instance>();

export function loadInstance(cls: InstanceClass, name: string): Instance {
  const key = `${cls}/${name}`;
  let inst = cache.get(key);
  if (!inst) {
    const text = readFileSync(path.join(benchDir(...ROOTS[cls]), `${name}.txt`), 'utf8');
    inst = cls === 'li_lim_100' ? parseLiLim(text, name) : parseSolomon(text, name, cls);
    cache.set(key, inst);
  }
  return inst;
}

export function loadClass(cls: InstanceClass): Instance[] {
  return listInstances(cls).map((n) => loadInstance(cls, n));
}

export interface BksEntry {
  class: string;
  best_known_cost: number;
  capacity: number;
  jobs: number;
  solved_with_vehicles: number;
  total_demand: number;
  vehicles: number;
}

let bksFiles: { VRPTW: Record<string, BksEntry>; PDPTW: Record<string, BksEntry> } | null = null;

export function bksTable(cls: InstanceClass): Record<string, BksEntry> {
  bksFiles ??= {
    VRPTW: JSON.parse(readFileSync(benchDir('VRPTW', 'BKS.json'), 'utf8')),
    PDPTW: JSON.parse(readFileSync(benchDir('PDPTW', 'BKS.json'), 'utf8')),
  };
  return cls === 'li_lim_100' ? bksFiles.PDPTW : bksFiles.VRPTW;
}

/**
 * Best-known solutions: `vehicles` is the vehicles-first best (fewest vehicles, then distance);
 * `distance` is the travel-only best, known for Solomon only (the `<name>_distance` keys).
 * Costs are the literature's double-precision distances rounded to 2 decimals.
 */
export function bestKnown(inst: Pick<Instance, 'name' | 'class'>): { vehicles: BestKnown | null; distance: BestKnown | null } {
  const table = bksTable(inst.class);
  const pick = (e: BksEntry | undefined): BestKnown | null => (e ? { cost: e.best_known_cost, vehicles: e.solved_with_vehicles } : null);
  return { vehicles: pick(table[inst.name]), distance: pick(table[`${inst.name}_distance`]) };
}

/** Number of visits (pickups plus deliveries) the instance asks for. */
export const visitCount = (inst: Instance): number => inst.nodes.length - 1;

/** Straight-line distance between two nodes, double precision (the literature's convention). */
export function euclid(inst: Instance, a: number, b: number): number {
  const p = inst.nodes[a]!, q = inst.nodes[b]!;
  const dx = p.x - q.x, dy = p.y - q.y;
  return Math.sqrt(dx * dx + dy * dy);
}
