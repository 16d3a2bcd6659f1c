/**
 * The compliance report of a truck route (volume 3 truck.validation): whether every edge of the
 * path admits the vehicle, checked edge by edge against the cost model's hard limits.
 */
import type { CostModel } from './cost-model.ts';
import type { RouteResult } from './search.ts';

export interface TruckCompliance {
  compliant: boolean;
  /** Directed edges that do not admit the vehicle (empty when compliant). */
  offendingEdges: number[];
}

export function truckCompliance(model: CostModel, path: RouteResult): TruckCompliance {
  const offendingEdges = Array.from(path.edges).filter((edge) => !model.allowed(edge));
  return { compliant: offendingEdges.length === 0, offendingEdges };
}
