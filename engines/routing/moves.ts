import type { CostModel } from './cost-model.ts';

/** Forbidden when true: turning from inEdge onto outEdge (turn restrictions plug in here). */
export type TurnRule = (inEdge: number, outEdge: number) => boolean;

/**
 * The moves of an edge-based search at a node: arriving over `edge`, which edges may it leave
 * by? Those the mode may use and the turn rule allows; the way back (a u-turn) only where the
 * node offers nothing else (a dead end).
 */
export class Moves {
  constructor(private readonly model: CostModel, private readonly turnRule: TurnRule | undefined) {}

  /** Whether arriving over `edge` leaves no exit but its own reverse. */
  deadEndAfter(edge: number): boolean {
    const a = this.model.graph.arrays;
    const v = a.edgeTarget[edge]!;
    const back = a.edgeReverse[edge]!;
    for (let next = a.firstEdge[v]!; next < a.firstEdge[v + 1]!; next++) {
      if (next !== back && this.model.allowed(next)) return false;
    }
    return true;
  }

  /** Whether arriving over `edge` may leave by `next` (an edge of its target node); the dead-end scan runs only for the way back. */
  allowed(edge: number, next: number): boolean {
    return this.model.allowed(next) && this.turnAllowed(edge, next);
  }

  /** allowed() for a `next` the mode is already known to use: the u-turn and turn rules only. */
  turnAllowed(edge: number, next: number): boolean {
    if (next === this.model.graph.arrays.edgeReverse[edge] && !this.deadEndAfter(edge)) return false;
    return !(this.turnRule !== undefined && this.turnRule(edge, next));
  }
}
