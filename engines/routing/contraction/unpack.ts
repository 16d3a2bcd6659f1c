/** Turning CH arcs back into the RoadGraph's directed edges, in travel order. */
import { NO_ARC } from './format.ts';
import type { ContractionHierarchy } from './hierarchy.ts';
import { seedPosition, type UpwardSearch } from './upward-search.ts';

/** Appends the original edges of `arc` to `out` (an explicit stack: shortcuts nest deeply). */
export function unpackArc(ch: ContractionHierarchy, arc: number, out: number[], stack: number[]): void {
  const { arcA, arcB } = ch.arrays;
  stack.length = 0;
  stack.push(arc);
  while (stack.length > 0) {
    const id = stack.pop()!;
    const b = arcB[id]!;
    if (b === NO_ARC) out.push(arcA[id]!);
    else stack.push(b, arcA[id]!);
  }
}

/**
 * Appends the edges of the forward search's path from its seed up to `node`; returns the index
 * of the seeding position.
 */
export function unpackForward(ch: ContractionHierarchy, fwd: UpwardSearch, node: number, out: number[], stack: number[]): number {
  const chain: number[] = [];
  let v = node;
  while (fwd.predArc[v]! >= 0) {
    chain.push(fwd.predArc[v]!);
    v = fwd.predNode[v]!;
  }
  for (let i = chain.length - 1; i >= 0; i--) unpackArc(ch, chain[i]!, out, stack);
  return seedPosition(fwd.predArc[v]!);
}

/**
 * Appends the edges of the backward search's path from `node` down to its seed; returns the
 * index of the seeding position.
 */
export function unpackBackward(ch: ContractionHierarchy, bwd: UpwardSearch, node: number, out: number[], stack: number[]): number {
  let v = node;
  while (bwd.predArc[v]! >= 0) {
    unpackArc(ch, bwd.predArc[v]!, out, stack);
    v = bwd.predNode[v]!;
  }
  return seedPosition(bwd.predArc[v]!);
}
