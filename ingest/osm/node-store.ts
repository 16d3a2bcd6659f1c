import { float64List } from '../../lib/growable-array.ts';
import { lowerBound } from '../../lib/sorted-search.ts';

/**
 * Coordinates of the nodes that wanted ways refer to, without a Map (V8 caps a Map at ~16.7M
 * entries; a national extract needs tens of millions): ids collected into a growable
 * Float64Array (OSM ids stay well below 2^53), sorted and de-duplicated, then coordinates
 * stored at the id's index. Files sorted by id are matched with a moving cursor (linear);
 * otherwise by binary search.
 */
export class NodeStore {
  private readonly pending = float64List(1 << 16);
  private ids = new Float64Array(0);
  private lng = new Float64Array(0);
  private lat = new Float64Array(0);
  private cursor = 0;
  private lastId = -Infinity;
  /** How many wanted ids got coordinates. */
  found = 0;

  want(id: number): void {
    this.pending.push(id);
  }

  /** Ends the collecting phase. */
  seal(): void {
    const all = this.pending.view().slice().sort();
    let n = 0;
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i]!;
    this.ids = all.slice(0, n);
    this.pending.clear();
    this.lng = new Float64Array(n).fill(NaN);
    this.lat = new Float64Array(n).fill(NaN);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Offers a node read from the file; kept when it is wanted. */
  offer(id: number, lng: number, lat: number): void {
    const ids = this.ids;
    let i: number;
    if (id > this.lastId) {
      i = this.cursor;
      while (i < ids.length && ids[i]! < id) i++;
      this.cursor = i;
    } else {
      i = this.search(id);
      this.cursor = i;
    }
    this.lastId = id;
    if (i < ids.length && ids[i] === id && Number.isNaN(this.lng[i]!)) {
      this.lng[i] = lng;
      this.lat[i] = lat;
      this.found++;
    }
  }

  /** Index of the first id ≥ `id`. */
  private search(id: number): number {
    return lowerBound(this.ids, id);
  }

  /** [lng, lat] of a wanted node, or null when the file did not hold it. */
  get(id: number): [number, number] | null {
    const i = this.search(id);
    if (i >= this.ids.length || this.ids[i] !== id || Number.isNaN(this.lng[i]!)) return null;
    return [this.lng[i]!, this.lat[i]!];
  }
}
