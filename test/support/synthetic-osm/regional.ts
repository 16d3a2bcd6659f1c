/**
 * What joins the towns: a road from every town to its nearest larger one (motorways between the
 * largest, as two one-way carriageways with motorway_link ramps onto the towns' main streets;
 * trunk, primary and secondary roads for the rest), main-line railways between the largest, and
 * a few long named rivers across the region. Roads end on the towns' gateway intersections
 * (ids from the node pass: see Emitter.partNode).
 */
import { haversineMetres } from '../../../lib/geo/haversine.ts';
import { seededRandom, type Random } from '../../../lib/seeded-random.ts';
import type { Emitter, Tags } from './emitter.ts';
import type { Names } from './names.ts';
import { between, chainWays, emitPoints, type Point } from './polyline.ts';
import { subSeed, type Region } from './region.ts';
import { gateway, sideFacing, type TownPlan } from './towns.ts';

const SALT = 2;
type RoadClass = 'motorway' | 'trunk' | 'primary' | 'secondary';

interface Link {
  a: number;
  b: number;
  cls: RoadClass;
}

const majorCount = (towns: readonly TownPlan[]) => Math.max(2, Math.ceil(towns.length * 0.05));

function nearest(towns: readonly TownPlan[], t: TownPlan, among: (o: TownPlan) => boolean): TownPlan[] {
  return towns.filter((o) => o !== t && among(o)).sort((x, y) => haversineMetres(t.lng, t.lat, x.lng, x.lat) - haversineMetres(t.lng, t.lat, y.lng, y.lat));
}

export function planLinks(towns: readonly TownPlan[]): Link[] {
  const major = majorCount(towns);
  const links: Link[] = [];
  const seen = new Set<string>();
  const add = (a: number, b: number, cls: RoadClass) => {
    const key = `${Math.min(a, b)}-${Math.max(a, b)}`;
    if (!seen.has(key)) links.push({ a, b, cls });
    seen.add(key);
  };
  for (const t of towns.slice(1)) {
    const to = nearest(towns, t, (o) => o.index < t.index)[0]!;
    const rank = (t.index - major) / Math.max(1, towns.length - major);
    const cls = t.index < major ? 'motorway' : rank < 0.25 ? 'trunk' : rank < 0.55 ? 'primary' : 'secondary';
    add(to.index, t.index, cls);
  }
  for (const t of towns.slice(0, major)) {
    const second = nearest(towns, t, (o) => o.index < major)[1];
    if (second) add(t.index, second.index, 'motorway');
  }
  return links;
}

function gatewayToward(e: Emitter, from: TownPlan, to: TownPlan): Point & { id: number } {
  const g = gateway(from, sideFacing(from, to.lng, to.lat));
  return { id: e.partNode(from.index, g.offset), lng: from.frame.lngOf(g.u, g.v), lat: from.frame.latOf(g.u, g.v) };
}

function layRoad(e: Emitter, random: Random, towns: readonly TownPlan[], link: Link, number: number): void {
  const [ta, tb] = [towns[link.a]!, towns[link.b]!];
  const a = gatewayToward(e, ta, tb);
  const b = gatewayToward(e, tb, ta);
  const quebec = ta.province === 'QC';
  const bow = random() - 0.5;
  if (link.cls !== 'motorway') {
    const ref = String(number);
    const tags: Tags = { highway: link.cls, ref, name: quebec ? `Route ${ref}` : `Highway ${ref}` };
    if (link.cls !== 'secondary') tags.maxspeed = '80';
    chainWays(e, [a.id, ...emitPoints(e, between(random, a, b, 250, 0, bow)), b.id], tags);
    return;
  }
  const ref = String(quebec ? 10 + number : 400 + number);
  const tags: Tags = { highway: 'motorway', ref, name: quebec ? `Autoroute ${ref}` : `Highway ${ref}`, oneway: 'yes', lanes: '2', maxspeed: '100' };
  if (!quebec) tags['name:fr'] = `Autoroute ${ref}`;
  const forward = emitPoints(e, between(random, a, b, 300, 12, bow));
  const backward = emitPoints(e, between(random, b, a, 300, 12, -bow));
  chainWays(e, forward, tags);
  chainWays(e, backward, tags);
  const ramp: Tags = { highway: 'motorway_link', oneway: 'yes' };
  e.way([a.id, forward[0]!], ramp);
  e.way([forward.at(-1)!, b.id], ramp);
  e.way([b.id, backward[0]!], ramp);
  e.way([backward.at(-1)!, a.id], ramp);
}

function layRailway(e: Emitter, random: Random, names: Names, from: TownPlan, to: TownPlan): void {
  const a = gatewayToward(e, from, to);
  const b = gatewayToward(e, to, from);
  const shift = (p: Point): Point => ({ lng: p.lng + 0.002, lat: p.lat + 0.0015 });
  const [sa, sb] = [shift(a), shift(b)];
  const refs = [
    e.node(sa.lng, sa.lat, { railway: 'station', name: from.name, public_transport: 'station' }),
    ...emitPoints(e, between(random, sa, sb, 400)),
    e.node(sb.lng, sb.lat, { railway: 'station', name: to.name, public_transport: 'station' }),
  ];
  chainWays(e, refs, { railway: 'rail', usage: 'main', gauge: '1435', name: `CN ${names.word(random)} Subdivision` });
}

function layRiver(e: Emitter, random: Random, names: Names, region: Region): void {
  const fromWest = random.chance(0.5);
  const inset = 0.02;
  let lng = fromWest ? region.west + inset : region.west + inset + random() * (region.east - region.west - 2 * inset);
  let lat = fromWest ? region.south + inset + random() * (region.north - region.south - 2 * inset) : region.north - inset;
  let heading = fromWest ? (random() - 0.5) * 0.8 : -Math.PI / 2 + (random() - 0.5) * 0.8;
  const general = heading;
  const step = 150;
  const refs: number[] = [];
  const inside = () => lng > region.west + inset / 2 && lng < region.east - inset / 2 && lat > region.south + inset / 2 && lat < region.north - inset / 2;
  while (inside() && refs.length < 20_000) {
    refs.push(e.node(lng, lat));
    heading += (random() - 0.5) * 0.4 + 0.15 * (general - heading);
    lng += (step * Math.cos(heading)) / (111_320 * Math.cos((lat * Math.PI) / 180));
    lat += (step * Math.sin(heading)) / 111_320;
  }
  if (refs.length < 2) return;
  const province = lng > region.quebecFrom ? 'QC' : 'ON';
  chainWays(e, refs, { waterway: 'river', name: names.water(random, province, 'river') }, 150);
}

/** Roads, then railways, then rivers, each part from its own seed; `part` is the first free part index. */
export function layRegional(e: Emitter, towns: readonly TownPlan[], names: Names, region: Region, seed: number, part: number, targetNodes: number): void {
  e.startPart(part);
  const roads = seededRandom(subSeed(seed, SALT, 0));
  planLinks(towns).forEach((link, k) => layRoad(e, roads, towns, link, k + 1));
  e.startPart(part + 1);
  const rails = seededRandom(subSeed(seed, SALT, 1));
  const major = majorCount(towns);
  for (const t of towns.slice(1, major)) layRailway(e, rails, names, t, nearest(towns, t, (o) => o.index < t.index)[0]!);
  e.startPart(part + 2);
  const rivers = seededRandom(subSeed(seed, SALT, 2));
  const count = 2 + Math.floor(targetNodes / 1_500_000);
  for (let k = 0; k < count; k++) layRiver(e, rivers, names, region);
}
