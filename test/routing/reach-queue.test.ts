import { describe, expect, it } from 'vitest';
import { QuaternaryHeap } from '../../engines/routing/reach-queue.ts';
import { random } from './vancouver-graph.ts';

describe('QuaternaryHeap', () => {
  it('pops keys in order, each with its id, through growth and interleaved pushes', () => {
    const heap = new QuaternaryHeap();
    const next = random(5);
    const pending = new Map<number, number>();
    const popped: number[] = [];
    for (let id = 0; id < 20_000; id++) {
      // Ties on purpose: whole tenths of a second, as road times often are.
      const key = Math.round(next() * 5_000) / 10;
      heap.push(key, id);
      pending.set(id, key);
      if (next() < 0.3) {
        const k = heap.peekKey();
        const got = heap.pop();
        expect(pending.get(got)).toBe(k);
        pending.delete(got);
      }
    }
    while (heap.size > 0) {
      const k = heap.peekKey();
      const got = heap.pop();
      expect(pending.get(got)).toBe(k);
      pending.delete(got);
      popped.push(k);
    }
    expect(pending.size).toBe(0);
    expect(popped).toEqual([...popped].sort((x, y) => x - y));
  });
});
