/**
 * The test oracles' priority queue: [key, id] pairs in a plain array kept as a binary heap,
 * independent of engines/routing/heap.ts so a fault there cannot hide in the references.
 */
export class PairHeap {
  private readonly items: [number, number][] = [];

  get size(): number {
    return this.items.length;
  }

  push(key: number, id: number): void {
    const heap = this.items;
    heap.push([key, id]);
    for (let i = heap.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (heap[p]![0] <= heap[i]![0]) break;
      [heap[p], heap[i]] = [heap[i]!, heap[p]!];
      i = p;
    }
  }

  /** The pair with the smallest key. */
  pop(): [number, number] {
    const heap = this.items;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        let m = i;
        if (l < heap.length && heap[l]![0] < heap[m]![0]) m = l;
        if (l + 1 < heap.length && heap[l + 1]![0] < heap[m]![0]) m = l + 1;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
    return top;
  }
}
