/**
 * The graph the build contracts, in typed arrays only: every arc ever made (original edges and
 * shortcuts, by creation id) and, per node not yet contracted, the ids of its arcs to other
 * uncontracted nodes (out and in). Lists live in one pool; a full list moves to the pool's end
 * with twice the room (the old block is left behind: road degrees stay small, so the waste does).
 */
import { NO_ARC } from './format.ts';

export class ArcStore {
  tail: Uint32Array;
  head: Uint32Array;
  weight: Float64Array;
  /** The road edge and NO_ARC (an original arc), or the two child arc ids of a shortcut. */
  a: Uint32Array;
  b: Uint32Array;
  /** Original edges the arc stands for (the build's "original edges" priority term). */
  hops: Uint32Array;
  count = 0;

  constructor(capacity: number) {
    this.tail = new Uint32Array(capacity);
    this.head = new Uint32Array(capacity);
    this.weight = new Float64Array(capacity);
    this.a = new Uint32Array(capacity);
    this.b = new Uint32Array(capacity);
    this.hops = new Uint32Array(capacity);
  }

  add(tail: number, head: number, weight: number, a: number, b: number, hops: number): number {
    if (this.count === this.tail.length) this.grow();
    const id = this.count++;
    this.tail[id] = tail;
    this.head[id] = head;
    this.set(id, weight, a, b, hops);
    return id;
  }

  set(id: number, weight: number, a: number, b: number, hops: number): void {
    this.weight[id] = weight;
    this.a[id] = a;
    this.b[id] = b;
    this.hops[id] = hops;
  }

  isShortcut(id: number): boolean {
    return this.b[id] !== NO_ARC;
  }

  private grow(): void {
    const size = Math.max(16, Math.ceil(this.tail.length * 1.5));
    const more = <T extends Uint32Array | Float64Array>(arr: T): T => {
      const next = new (arr.constructor as new (n: number) => T)(size);
      next.set(arr);
      return next;
    };
    this.tail = more(this.tail);
    this.head = more(this.head);
    this.weight = more(this.weight);
    this.a = more(this.a);
    this.b = more(this.b);
    this.hops = more(this.hops);
  }
}

/** Per node, a list of arc ids: pool[start[v] .. start[v] + size[v]). */
export class ArcLists {
  readonly start: Uint32Array;
  readonly size: Uint32Array;
  private readonly room: Uint32Array;
  pool: Uint32Array;
  private used = 0;

  constructor(nodes: number, degree: Uint32Array) {
    this.start = new Uint32Array(nodes);
    this.size = new Uint32Array(nodes);
    this.room = new Uint32Array(nodes);
    let total = 0;
    for (let v = 0; v < nodes; v++) total += degree[v]! + 1;
    this.pool = new Uint32Array(Math.max(16, Math.ceil(total * 1.5)));
    for (let v = 0; v < nodes; v++) {
      this.start[v] = this.used;
      this.room[v] = degree[v]! + 1;
      this.used += degree[v]! + 1;
    }
  }

  add(v: number, arc: number): void {
    const n = this.size[v]!;
    if (n === this.room[v]) this.move(v, 2 * n);
    this.pool[this.start[v]! + n] = arc;
    this.size[v] = n + 1;
  }

  /** Removes `arc` from v's list (the last entry takes its place). */
  remove(v: number, arc: number): void {
    const s = this.start[v]!;
    const last = s + this.size[v]! - 1;
    for (let i = s; i <= last; i++) {
      if (this.pool[i] === arc) {
        this.pool[i] = this.pool[last]!;
        this.size[v] = this.size[v]! - 1;
        return;
      }
    }
    throw new Error(`contraction: arc ${arc} is not in the list of node ${v}`);
  }

  /** Frees v's list (v is contracted). */
  clear(v: number): void {
    this.size[v] = 0;
  }

  private move(v: number, room: number): void {
    if (this.used + room > this.pool.length) {
      const next = new Uint32Array(Math.ceil((this.used + room) * 1.5));
      next.set(this.pool.subarray(0, this.used));
      this.pool = next;
    }
    this.pool.copyWithin(this.used, this.start[v]!, this.start[v]! + this.size[v]!);
    this.start[v] = this.used;
    this.room[v] = room;
    this.used += room;
  }
}
