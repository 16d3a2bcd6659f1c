/**
 * What the road graph keeps of one OSM way: which modes may use it in which direction, how fast,
 * and the restrictions and attributes the routing profiles read. `wayProfile` (way-tags.ts)
 * derives it from the tags; the graph build (graph-build.ts) stores it per edge.
 */

// Defined beside the graph format so the engine needs nothing from ingest/ (layering).
import type { Mode, RoadClass } from '../../engines/routing/modes.ts';
export { MODES, ROAD_CLASSES, type Mode, type RoadClass } from '../../engines/routing/modes.ts';

export interface DirectionalAccess {
  forward: boolean;
  backward: boolean;
}

/** Hard truck limits the tags give (null when absent): metres and tonnes. */
export interface TruckLimits {
  maxHeight: number | null;
  maxWidth: number | null;
  maxLength: number | null;
  maxWeight: number | null;
  maxAxleLoad: number | null;
}

export interface WayProfile {
  roadClass: RoadClass;
  /** `_link` ramps of motorway..tertiary. */
  link: boolean;
  access: Record<Mode, DirectionalAccess>;
  /** Free-flow speeds in km/h for the motor modes (maxspeed, else the documented default of the class). */
  speedKmh: { auto: number; truck: number };
  toll: boolean;
  /** A ferry route: its crossing takes `ferrySeconds` (from duration=*, else length at a documented speed). */
  ferry: boolean;
  ferrySeconds: number | null;
  bridge: boolean;
  tunnel: boolean;
  truck: TruckLimits;
  /** hgv=designated (or a designated truck route). */
  truckRoute: boolean;
  /** hazmat=no (or hazmat:*=no). */
  hazmatForbidden: boolean;
  name: string | null;
  ref: string | null;
}

/** A turn restriction relation: from way, via node (or via ways), to way; `except` modes are not bound by it. */
export interface TurnRestriction {
  id: number;
  kind: 'no' | 'only';
  from: number;
  via: { node: number } | { ways: number[] };
  to: number;
  /** The modes it applies to (restriction:hgv etc. narrow it; except=* removes modes). */
  modes: Mode[];
}
