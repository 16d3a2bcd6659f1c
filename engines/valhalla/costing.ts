/**
 * Our checked routing options (api/params/routing/options.ts: mode and CostOptions) as
 * Valhalla's `costing` and `costing_options`. Our documented defaults are sent explicitly, so a
 * request means the same on either backend: use_highways 0.5 (Valhalla's own default is 1),
 * use_hills 0.25 bicycle / 0.5 pedestrian, and the spec's truck (which are Valhalla's truck defaults).
 *
 * | ours                              | Valhalla                                                    |
 * |-----------------------------------|-------------------------------------------------------------|
 * | mode auto, car                    | costing auto                                                |
 * | mode truck / bicycle / pedestrian | costing truck / bicycle / pedestrian                        |
 * | avoid=tolls                       | use_tolls 0 (a preference, as ours)                         |
 * | avoid=highways                    | use_highways 0                                              |
 * | avoid=ferries                     | use_ferry 0                                                 |
 * | isochrone avoid=ferries           | use_ferry 0 + exclude_ferries true (the area without ferry) |
 * | use_highways (driving)            | use_highways                                                |
 * | use_hills (bicycle, pedestrian)   | use_hills                                                   |
 * | height, width, length (m)         | height, width, length (m)                                   |
 * | weight, axle_load (t)             | weight, axle_load (metric tons)                             |
 * | axle_count, hazmat                | axle_count, hazmat                                          |
 * | use_truck_route                   | use_truck_route                                             |
 */
import { DEFAULT_USE_HIGHWAYS, TRUCK_DEFAULTS, type CostOptions } from '../routing/cost-model.ts';
import { DEFAULT_USE_HILLS } from '../routing/hills.ts';
import type { Mode } from '../routing/modes.ts';

/** What a handler hands over: the mode (car already auto) and the cost options. */
export interface ValhallaOptions {
  mode: Mode;
  costs: CostOptions;
}

export type ValhallaCosting = 'auto' | 'truck' | 'bicycle' | 'pedestrian';

export interface CostingRequest {
  costing: ValhallaCosting;
  costing_options: Partial<Record<ValhallaCosting, Record<string, number | boolean>>>;
}

const DRIVING: ReadonlySet<Mode> = new Set(['auto', 'truck']);

/** The costing members of any Valhalla request for `options`. */
export function costingOf({ mode, costs }: ValhallaOptions): CostingRequest {
  const costing: ValhallaCosting = mode;
  const o: Record<string, number | boolean> = {};
  if (DRIVING.has(mode)) {
    o.use_highways = costs.avoidHighways ? 0 : costs.useHighways ?? DEFAULT_USE_HIGHWAYS;
    if (costs.avoidTolls) o.use_tolls = 0;
  } else {
    o.use_hills = costs.useHills ?? DEFAULT_USE_HILLS[mode as 'bicycle' | 'pedestrian'];
  }
  if (costs.avoidFerries || costs.excludeFerries) o.use_ferry = 0;
  if (costs.excludeFerries) o.exclude_ferries = true;
  if (mode === 'truck') {
    const truck = { ...TRUCK_DEFAULTS, ...costs.truck };
    Object.assign(o, {
      height: truck.height,
      width: truck.width,
      length: truck.length,
      weight: truck.weight,
      axle_load: truck.axleLoad,
      axle_count: truck.axleCount,
      hazmat: truck.hazmat,
      use_truck_route: truck.useTruckRoute,
    });
  }
  return { costing, costing_options: { [costing]: o } };
}

/** A Valhalla location: latitude first in name only, as Valhalla takes it. */
export const location = ([lng, lat]: readonly [number, number]) => ({ lat, lon: lng });
