/** What the checkers of one request share while they walk it. */
import type { MatrixTags } from './matrices.ts';
import type { Reader } from './reader.ts';
import type { OptimizationWarning } from '../response-json.ts';

/** Volume 3 rule 4: distinct load type names across loadDemands and loadLimits keys. */
export const MAX_LOAD_TYPES = 16;

export interface CheckContext {
  r: Reader;
  /** Harmless fields the solve ignores (volume 3: parent, considerRoadTraffic), answered in the response's warnings. */
  warnings: OptimizationWarning[];
  /** Epoch seconds. */
  globalStart: number;
  globalEnd: number;
  vehicleCount: number;
  /** Own matrices in use (their tags), or null for coordinates. */
  matrices: MatrixTags | null;
  /** Distinct load type names in order of first appearance. */
  loadTypes: string[];
}

/** Notes a load type name (a loadDemands or loadLimits key); false when refused. */
export function noteLoadType(ctx: CheckContext, name: string, path: string): boolean {
  if (name === '') {
    ctx.r.issue('INVALID_VALUE', path, 'a load type name must not be empty');
    return false;
  }
  if (ctx.loadTypes.includes(name)) return true;
  if (ctx.loadTypes.length >= MAX_LOAD_TYPES) {
    ctx.r.issue('OUT_OF_RANGE', path, `at most ${MAX_LOAD_TYPES} distinct load type names across loadDemands and loadLimits; "${name}" would be number ${ctx.loadTypes.length + 1}`);
    return false;
  }
  ctx.loadTypes.push(name);
  return true;
}
