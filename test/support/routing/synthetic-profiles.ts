/**
 * Segment profiles of the synthetic road graph: class, who may use it each way, speeds, flags and
 * truck limits, with the same defaults the real build uses (class access as ingest/roads/access.ts,
 * speeds from ingest/roads/speeds.ts). Profiles are interned: segments store a small index.
 */
import { EDGE_FLAG, encodeSpeed, encodeTenths, modeBit } from '../../../engines/routing/graph-format.ts';
import { ROAD_CLASSES, type RoadClass } from '../../../engines/routing/modes.ts';
import { DEFAULT_KMH, TRUCK_MAX_KMH, defaultSpeed } from '../../../ingest/roads/speeds.ts';

export const AUTO = modeBit('auto');
export const TRUCK = modeBit('truck');
export const BICYCLE = modeBit('bicycle');
export const PEDESTRIAN = modeBit('pedestrian');
export const MOTOR = AUTO | TRUCK;
export const ALL_MODES = AUTO | TRUCK | BICYCLE | PEDESTRIAN;

/** Default access per class, as CLASS_ACCESS in ingest/roads/access.ts. */
const CLASS_ACCESS: Record<RoadClass, number> = {
  motorway: MOTOR, trunk: ALL_MODES, primary: ALL_MODES, secondary: ALL_MODES, tertiary: ALL_MODES,
  unclassified: ALL_MODES, residential: ALL_MODES, service: ALL_MODES, living_street: ALL_MODES,
  track: AUTO | BICYCLE | PEDESTRIAN, path: BICYCLE | PEDESTRIAN, cycleway: BICYCLE | PEDESTRIAN,
  footway: PEDESTRIAN, pedestrian: PEDESTRIAN, steps: PEDESTRIAN, ferry: ALL_MODES,
};

/** Classes signed as designated truck routes (the provinces' highway networks). */
const TRUCK_ROUTE_CLASSES = new Set<RoadClass>(['motorway', 'trunk', 'primary']);

export interface ProfileOptions {
  /** Posted km/h; the class default (or link default) when absent. */
  speed?: number;
  link?: boolean;
  /** Open only along the segment's direction (pedestrians still walk both ways). */
  oneway?: boolean;
  /** EDGE_FLAG bits besides reversed / link / truckRoute, which are derived. */
  flags?: number;
  /** Metres. */
  maxHeight?: number;
  /** Tonnes. */
  maxWeight?: number;
}

/** Attribute codes of every interned profile, by index (what each edge copies). */
export interface ProfileCodes {
  roadClass: Uint8Array;
  flags: Uint16Array;
  forward: Uint8Array;
  backward: Uint8Array;
  speedAuto: Uint8Array;
  speedTruck: Uint8Array;
  maxHeight: Uint8Array;
  maxWeight: Uint16Array;
}

export class ProfileTable {
  private readonly ids = new Map<string, number>();
  private readonly rows: number[][] = [];

  /** The index of a road profile of this class and options. */
  road(roadClass: RoadClass, options: ProfileOptions = {}): number {
    const access = CLASS_ACCESS[roadClass];
    const auto = options.speed ?? (roadClass === 'ferry' ? DEFAULT_KMH.ferry : defaultSpeed(roadClass, options.link ?? false));
    const flags = (options.flags ?? 0) | (options.link ? EDGE_FLAG.link : 0)
      | (TRUCK_ROUTE_CLASSES.has(roadClass) ? EDGE_FLAG.truckRoute : 0) | (roadClass === 'ferry' ? EDGE_FLAG.ferry : 0);
    return this.intern([
      ROAD_CLASSES.indexOf(roadClass),
      flags,
      access,
      options.oneway ? access & PEDESTRIAN : access,
      encodeSpeed(auto),
      encodeSpeed(Math.min(auto, TRUCK_MAX_KMH)),
      encodeTenths(options.maxHeight ?? null, 0xff),
      encodeTenths(options.maxWeight ?? null, 0xffff),
    ]);
  }

  private intern(row: number[]): number {
    const key = row.join(',');
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.rows.length;
      this.rows.push(row);
      this.ids.set(key, id);
    }
    return id;
  }

  get size(): number {
    return this.rows.length;
  }

  codes(): ProfileCodes {
    const column = <A extends Uint8Array | Uint16Array>(make: (n: number) => A, k: number): A => {
      const out = make(this.rows.length);
      this.rows.forEach((row, i) => (out[i] = row[k]!));
      return out;
    };
    return {
      roadClass: column((n) => new Uint8Array(n), 0),
      flags: column((n) => new Uint16Array(n), 1),
      forward: column((n) => new Uint8Array(n), 2),
      backward: column((n) => new Uint8Array(n), 3),
      speedAuto: column((n) => new Uint8Array(n), 4),
      speedTruck: column((n) => new Uint8Array(n), 5),
      maxHeight: column((n) => new Uint8Array(n), 6),
      maxWeight: column((n) => new Uint16Array(n), 7),
    };
  }
}
