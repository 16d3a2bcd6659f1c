import type { BBox } from '../../lib/geo/bbox.ts';

/** Degrees per grid cell: about 28 km north–south, 15–20 km east–west in BC. */
const CELL_DEG = 0.25;
/** Past this share of all events (counting repeats across cells, and at least 256), a query scans them all instead. */
const DENSE_SHARE = 0.25;
const DENSE_MIN = 256;
/** An event whose box spans more cells than this is kept on a list every query reads. */
const WIDE_CELLS = 64;
/**
 * The grid covers at most British Columbia with a margin (about 106 × 52 cells): an event with a
 * box outside it (a publisher's stray coordinate) goes on the wide list instead of stretching the grid.
 */
export const GRID_ENVELOPE: BBox = { minLon: -140, minLat: 47.5, maxLon: -113.5, maxLat: 60.5 };

const insideEnvelope = (minLon: number, minLat: number, maxLon: number, maxLat: number) =>
  minLon >= GRID_ENVELOPE.minLon && maxLon <= GRID_ENVELOPE.maxLon && minLat >= GRID_ENVELOPE.minLat && maxLat <= GRID_ENVELOPE.maxLat;

/**
 * A uniform grid over the events' boxes, so a bbox or near query reads the few events around it
 * instead of scanning them all. Each cell lists event indexes in ascending (= answer) order.
 */
export class EventGrid {
  private readonly cols: number;
  private readonly rows: number;
  private readonly minLon: number;
  private readonly minLat: number;
  private readonly cells: Int32Array[];
  private readonly wide: Int32Array;
  private readonly size: number;

  constructor(box: { minLon: Float64Array; minLat: Float64Array; maxLon: Float64Array; maxLat: Float64Array }) {
    const n = box.minLon.length;
    this.size = n;
    const gridded = (i: number) => insideEnvelope(box.minLon[i]!, box.minLat[i]!, box.maxLon[i]!, box.maxLat[i]!);
    let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
    for (let i = 0; i < n; i++) {
      if (!gridded(i)) continue;
      minLon = Math.min(minLon, box.minLon[i]!);
      minLat = Math.min(minLat, box.minLat[i]!);
      maxLon = Math.max(maxLon, box.maxLon[i]!);
      maxLat = Math.max(maxLat, box.maxLat[i]!);
    }
    const any = minLon !== Infinity;
    this.minLon = any ? minLon : 0;
    this.minLat = any ? minLat : 0;
    this.cols = any ? Math.floor((maxLon - minLon) / CELL_DEG) + 1 : 1;
    this.rows = any ? Math.floor((maxLat - minLat) / CELL_DEG) + 1 : 1;
    const lists: number[][] = Array.from({ length: this.cols * this.rows }, () => []);
    const wide: number[] = [];
    for (let i = 0; i < n; i++) {
      const [c0, c1, r0, r1] = this.span(box.minLon[i]!, box.minLat[i]!, box.maxLon[i]!, box.maxLat[i]!);
      if (!gridded(i) || (c1 - c0 + 1) * (r1 - r0 + 1) > WIDE_CELLS) {
        wide.push(i);
        continue;
      }
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) lists[r * this.cols + c]!.push(i);
    }
    this.cells = lists.map((l) => Int32Array.from(l));
    this.wide = Int32Array.from(wide);
  }

  /** Cells of the grid (bounded by GRID_ENVELOPE). */
  get cellCount(): number {
    return this.cols * this.rows;
  }

  private span(minLon: number, minLat: number, maxLon: number, maxLat: number): [number, number, number, number] {
    const clamp = (v: number, max: number) => Math.min(max - 1, Math.max(0, v));
    return [
      clamp(Math.floor((minLon - this.minLon) / CELL_DEG), this.cols),
      clamp(Math.floor((maxLon - this.minLon) / CELL_DEG), this.cols),
      clamp(Math.floor((minLat - this.minLat) / CELL_DEG), this.rows),
      clamp(Math.floor((maxLat - this.minLat) / CELL_DEG), this.rows),
    ];
  }

  /**
   * Ascending indexes of the events that may touch `box` (duplicates removed); null when that
   * would be a large share of all events: scanning them all in order is then cheaper than sorting.
   */
  candidates(box: BBox): Int32Array | null {
    const [c0, c1, r0, r1] = this.span(box.minLon, box.minLat, box.maxLon, box.maxLat);
    const outside = box.maxLon < this.minLon || box.maxLat < this.minLat || box.minLon > this.minLon + this.cols * CELL_DEG || box.minLat > this.minLat + this.rows * CELL_DEG;
    let total = this.wide.length;
    if (!outside) for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) total += this.cells[r * this.cols + c]!.length;
    if (total > DENSE_MIN && total > this.size * DENSE_SHARE) return null;
    const all = new Int32Array(total);
    all.set(this.wide);
    let at = this.wide.length;
    if (!outside) {
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const cell = this.cells[r * this.cols + c]!;
          all.set(cell, at);
          at += cell.length;
        }
      }
    }
    all.sort();
    let unique = 0;
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[unique++] = all[i]!;
    return all.subarray(0, unique);
  }
}
