/**
 * A static grid over stop coordinates for "stops within r metres of a point": candidates come
 * from the cells overlapping the query's bounding box, then the exact haversine distance decides.
 */
import { haversineMetres, METRES_PER_DEGREE } from '../../lib/geo/haversine.ts';

const METRES_PER_DEGREE_LAT = METRES_PER_DEGREE;
const toRad = Math.PI / 180;
const CELL_DEGREES = 0.01;
/** Beyond this the cell scan grows without bound; the API allows 10 km. */
const MAX_RADIUS_M = 100_000;
const LNG_CELLS = Math.round(360 / CELL_DEGREES);


export interface GridHit {
  item: number;
  distance: number;
}

export class StopGrid {
  private readonly cells = new Map<number, number[]>();

  private constructor(private readonly lngs: Float64Array, private readonly lats: Float64Array) {}

  /** items: indexes with their coordinates; only those given are searchable. */
  static build(points: { item: number; lng: number; lat: number }[], size: number): StopGrid {
    const grid = new StopGrid(new Float64Array(size), new Float64Array(size));
    for (const { item, lng, lat } of points) {
      grid.lngs[item] = lng;
      grid.lats[item] = lat;
      const key = cellKey(latCell(lat), lngCell(lng));
      const cell = grid.cells.get(key);
      if (cell) cell.push(item);
      else grid.cells.set(key, [item]);
    }
    return grid;
  }

  /** Items within radius metres of (lng, lat), nearest first, at most limit. */
  within(lng: number, lat: number, radius: number, limit: number): GridHit[] {
    if (!(radius >= 0 && radius <= MAX_RADIUS_M)) throw new RangeError(`radius ${radius} is outside 0..${MAX_RADIUS_M} m`);
    const dLat = radius / METRES_PER_DEGREE_LAT;
    const south = Math.max(-90, lat - dLat);
    const north = Math.min(90, lat + dLat);
    const widestCos = Math.cos(Math.max(Math.abs(south), Math.abs(north)) * toRad);
    const dLng = widestCos * 180 < dLat ? 180 : Math.min(180, dLat / widestCos);
    const hits: GridHit[] = [];
    const visit = (cell: number[]) => {
      for (const item of cell) {
        const distance = haversineMetres(lng, lat, this.lngs[item]!, this.lats[item]!);
        if (distance <= radius) hits.push({ item, distance });
      }
    };
    const lngCellFrom = Math.floor((lng - dLng) / CELL_DEGREES);
    const lngSpan = Math.min(LNG_CELLS - 1, Math.floor((lng + dLng) / CELL_DEGREES) - lngCellFrom);
    const yFrom = latCell(south);
    const yTo = latCell(north);
    if ((yTo - yFrom + 1) * (lngSpan + 1) > this.cells.size) {
      // Near the poles the box spans every longitude: fewer occupied cells than cells to probe.
      for (const [key, cell] of this.cells) {
        const y = Math.floor(key / LNG_CELLS);
        if (y >= yFrom && y <= yTo) visit(cell);
      }
    } else {
      for (let y = yFrom; y <= yTo; y++) {
        for (let i = 0; i <= lngSpan; i++) {
          const cell = this.cells.get(cellKey(y, wrapLngCell(lngCellFrom + i)));
          if (cell) visit(cell);
        }
      }
    }
    hits.sort((a, b) => a.distance - b.distance || a.item - b.item);
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }
}

const latCell = (lat: number) => Math.floor((lat + 90) / CELL_DEGREES);
const lngCell = (lng: number) => wrapLngCell(Math.floor(lng / CELL_DEGREES));
const wrapLngCell = (x: number) => (((x + LNG_CELLS / 2) % LNG_CELLS) + LNG_CELLS) % LNG_CELLS;
const cellKey = (y: number, x: number) => y * LNG_CELLS + x;
