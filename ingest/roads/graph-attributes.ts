/**
 * The per-edge attribute codes of each distinct way profile (edges copy them by profile index),
 * and the graph's string table of names and refs.
 */
import { EDGE_FLAG, encodeSpeed, encodeTenths, modeBit } from '../../engines/routing/graph-format.ts';
import { MODES, ROAD_CLASSES } from '../../engines/routing/modes.ts';
import type { WayProfile } from './way-profile.ts';

export interface StringTable {
  bytes: Uint8Array;
  offsets: Uint32Array;
  /** Index of a string of the table; 0 for null or ''. */
  indexOf(s: string | null): number;
}

/** Every name and ref of the profiles, string 0 being ''. */
export function buildStringTable(profiles: readonly WayProfile[]): StringTable {
  const index = new Map<string, number>([['', 0]]);
  const encoded: Buffer[] = [Buffer.alloc(0)];
  const add = (s: string | null) => {
    if (s === null || index.has(s)) return;
    index.set(s, encoded.length);
    encoded.push(Buffer.from(s, 'utf8'));
  };
  for (const p of profiles) {
    add(p.name);
    add(p.ref);
  }
  const offsets = new Uint32Array(encoded.length + 1);
  encoded.forEach((b, i) => (offsets[i + 1] = offsets[i]! + b.length));
  const bytes = new Uint8Array(offsets[encoded.length]!);
  encoded.forEach((b, i) => bytes.set(b, offsets[i]!));
  return { bytes, offsets, indexOf: (s) => (s === null ? 0 : index.get(s)!) };
}

export interface EncodedProfiles {
  /** Access bits in the way's direction and against it. */
  forward: Uint8Array;
  backward: Uint8Array;
  roadClass: Uint8Array;
  flags: Uint16Array;
  speedAuto: Uint8Array;
  speedTruck: Uint8Array;
  maxHeight: Uint8Array;
  maxWidth: Uint8Array;
  maxLength: Uint16Array;
  maxWeight: Uint16Array;
  maxAxleLoad: Uint16Array;
  name: Uint32Array;
  ref: Uint32Array;
}

function flagsOf(p: WayProfile): number {
  return (p.toll ? EDGE_FLAG.toll : 0) | (p.ferry ? EDGE_FLAG.ferry : 0) | (p.bridge ? EDGE_FLAG.bridge : 0) |
    (p.tunnel ? EDGE_FLAG.tunnel : 0) | (p.link ? EDGE_FLAG.link : 0) | (p.truckRoute ? EDGE_FLAG.truckRoute : 0) |
    (p.hazmatForbidden ? EDGE_FLAG.hazmatForbidden : 0);
}

export function encodeProfiles(profiles: readonly WayProfile[], strings: StringTable): EncodedProfiles {
  const n = profiles.length;
  const out: EncodedProfiles = {
    forward: new Uint8Array(n),
    backward: new Uint8Array(n),
    roadClass: new Uint8Array(n),
    flags: new Uint16Array(n),
    speedAuto: new Uint8Array(n),
    speedTruck: new Uint8Array(n),
    maxHeight: new Uint8Array(n),
    maxWidth: new Uint8Array(n),
    maxLength: new Uint16Array(n),
    maxWeight: new Uint16Array(n),
    maxAxleLoad: new Uint16Array(n),
    name: new Uint32Array(n),
    ref: new Uint32Array(n),
  };
  profiles.forEach((p, i) => {
    for (const mode of MODES) {
      if (p.access[mode].forward) out.forward[i]! |= modeBit(mode);
      if (p.access[mode].backward) out.backward[i]! |= modeBit(mode);
    }
    const roadClass = ROAD_CLASSES.indexOf(p.roadClass);
    if (roadClass < 0) throw new Error(`way profile has unknown road class ${JSON.stringify(p.roadClass)}`);
    out.roadClass[i] = roadClass;
    out.flags[i] = flagsOf(p);
    out.speedAuto[i] = encodeSpeed(p.speedKmh.auto);
    out.speedTruck[i] = encodeSpeed(p.speedKmh.truck);
    out.maxHeight[i] = encodeTenths(p.truck.maxHeight, 0xff);
    out.maxWidth[i] = encodeTenths(p.truck.maxWidth, 0xff);
    out.maxLength[i] = encodeTenths(p.truck.maxLength, 0xffff);
    out.maxWeight[i] = encodeTenths(p.truck.maxWeight, 0xffff);
    out.maxAxleLoad[i] = encodeTenths(p.truck.maxAxleLoad, 0xffff);
    out.name[i] = strings.indexOf(p.name);
    out.ref[i] = strings.indexOf(p.ref);
  });
  return out;
}
