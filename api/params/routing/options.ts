/**
 * Mode, preferences and truck profile of /route, /isochrone and /matrix (volume 3 "Routing"):
 * which option applies to which mode, the verbatim 400s, and the engine's cost options.
 */
import type { CostOptions, TruckSpec } from '../../../engines/routing/cost-model.ts';
import type { Mode } from '../../../engines/routing/modes.ts';
import { AVOIDABLE, type Avoidable, type PreferenceQuery } from '../../../schemas/routing-api.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

export interface RoutingOptions {
  mode: Mode;
  costs: CostOptions;
}

/** The options as both the query and the matrix body carry them; avoid already split. */
export type OptionInput = Omit<PreferenceQuery, 'avoid'> & { avoid?: string[] };

const DRIVING = new Set(['auto', 'car', 'truck']);
const HILLY = new Set(['bicycle', 'pedestrian']);
const TRUCK_PARAMETERS = ['height', 'width', 'length', 'weight', 'axle_load', 'axle_count', 'hazmat', 'use_truck_route'] as const;
const AVOID_FORMAT = `avoid must be a comma list of ${AVOIDABLE.join(', ')}`;

/** The mode a request names, among those the endpoint offers (volume 1 invalid_mode, verbatim). */
export function checkMode(raw: string | undefined, offered: readonly string[]): Checked<string> {
  const mode = raw ?? 'auto';
  return offered.includes(mode) ? accept(mode) : reject(`mode must be one of ${offered.join(', ')}`, 'invalid_mode');
}

/** Every option the request sent, by name (for refusing them on modes without options). */
export function sentOptions(input: OptionInput): string[] {
  const names = ['avoid', 'use_highways', 'use_hills', ...TRUCK_PARAMETERS] as const;
  return names.filter((name) => input[name] !== undefined);
}

function checkAvoid(values: string[], mode: string): Checked<Set<Avoidable>> {
  const avoid = new Set<Avoidable>();
  if (values.length === 0) return reject(`${AVOID_FORMAT}, not empty`, 'invalid_route_option');
  for (const raw of values) {
    const value = raw.trim();
    if (!(AVOIDABLE as readonly string[]).includes(value)) {
      return reject(value === '' ? `${AVOID_FORMAT}, without empty items` : `${AVOID_FORMAT}; unknown value "${value.slice(0, 40)}"`, 'invalid_route_option');
    }
    if (value !== 'ferries' && !DRIVING.has(mode)) return reject(`avoid=${value} applies only to mode=auto, car, or truck`, 'invalid_route_option');
    avoid.add(value as Avoidable);
  }
  return accept(avoid);
}

/** The cost options of a road mode (everything but transit), checked against the mode. */
export function checkRoadOptions(mode: string, input: OptionInput): Checked<RoutingOptions> {
  if (input.use_highways !== undefined && !DRIVING.has(mode)) return reject('use_highways applies only to mode=auto, car, or truck', 'invalid_route_option');
  if (input.use_hills !== undefined && !HILLY.has(mode)) return reject('use_hills applies only to mode=bicycle or pedestrian', 'invalid_route_option');
  const misplacedTruck = mode === 'truck' ? undefined : TRUCK_PARAMETERS.find((name) => input[name] !== undefined);
  if (misplacedTruck) return reject(`${misplacedTruck} applies only to mode=truck`, 'invalid_route_option');
  const costs: CostOptions = {};
  if (input.avoid !== undefined) {
    const avoid = checkAvoid(input.avoid, mode);
    if (!avoid.ok) return avoid;
    if (avoid.value.has('highways') && input.use_highways !== undefined) {
      return reject('avoid=highways cannot be combined with use_highways', 'invalid_route_option');
    }
    costs.avoidTolls = avoid.value.has('tolls');
    costs.avoidHighways = avoid.value.has('highways');
    costs.avoidFerries = avoid.value.has('ferries');
  }
  if (input.use_highways !== undefined) costs.useHighways = input.use_highways;
  if (input.use_hills !== undefined) costs.useHills = input.use_hills;
  if (mode === 'truck') costs.truck = truckSpec(input);
  return accept({ mode: mode === 'car' ? 'auto' : (mode as Mode), costs });
}

function truckSpec(input: OptionInput): Partial<TruckSpec> {
  const spec: Partial<TruckSpec> = {};
  if (input.height !== undefined) spec.height = input.height;
  if (input.width !== undefined) spec.width = input.width;
  if (input.length !== undefined) spec.length = input.length;
  if (input.weight !== undefined) spec.weight = input.weight;
  if (input.axle_load !== undefined) spec.axleLoad = input.axle_load;
  if (input.axle_count !== undefined) spec.axleCount = input.axle_count;
  if (input.hazmat !== undefined) spec.hazmat = input.hazmat;
  if (input.use_truck_route !== undefined) spec.useTruckRoute = input.use_truck_route;
  return spec;
}
