import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { seededRandom } from '../../lib/seeded-random.ts';

export interface PolygonGrid {
  west: number;
  south: number;
  columns: number;
  rows: number;
  /** Cell size, degrees. */
  cell: number;
}

/** 5,000 cells of 0.05° over southern British Columbia and Alberta. */
export const BENCH_GRID: PolygonGrid = { west: -124, south: 49, columns: 100, rows: 50, cell: 0.05 };

function star(cx: number, cy: number, radius: number, vertices: number, next: () => number, clockwise: boolean): number[][] {
  const ring: number[][] = [];
  for (let i = 0; i < vertices; i++) {
    const a = (2 * Math.PI * (clockwise ? vertices - i : i)) / vertices;
    const r = radius * (0.6 + 0.4 * next());
    ring.push([+(cx + r * Math.cos(a)).toFixed(7), +(cy + r * Math.sin(a) * 0.7).toFixed(7)]);
  }
  ring.push(ring[0]!);
  return ring;
}

/**
 * Complex polygons, one per grid cell: jagged star outlines of 100 to 800 vertices, every third
 * with a hole, written as NDJSON. Returns how many vertices were written.
 */
export async function writeComplexPolygons(file: string, grid: PolygonGrid, seed = 42): Promise<number> {
  const next = seededRandom(seed);
  const out = createWriteStream(file);
  let vertices = 0;
  for (let row = 0; row < grid.rows; row++) {
    for (let col = 0; col < grid.columns; col++) {
      const cx = grid.west + (col + 0.5) * grid.cell;
      const cy = grid.south + (row + 0.5) * grid.cell;
      const n = 100 + Math.floor(next() * 700);
      const rings = [star(cx, cy, grid.cell / 2, n, next, false)];
      if ((row * grid.columns + col) % 3 === 0) rings.push(star(cx, cy, grid.cell / 8, 24, next, true));
      vertices += rings.reduce((s, r) => s + r.length, 0);
      const id = `cell-${row}-${col}`;
      const line = JSON.stringify({ type: 'Feature', id, properties: { name: `Bench area ${row}-${col}`, rank: row * grid.columns + col }, geometry: { type: 'Polygon', coordinates: rings } });
      if (!out.write(`${line}\n`)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return vertices;
}
