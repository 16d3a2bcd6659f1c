/** GeoJSON lines of our answers from micro-degree lines (six decimals exactly). */
import { lineLngLat } from './polyline6.ts';

export interface LineString {
  type: 'LineString';
  coordinates: [number, number][];
}

export interface MultiLineString {
  type: 'MultiLineString';
  coordinates: [number, number][][];
}

/** A LineString of `line` (positions `from` to `to`, exclusive); a lone position is doubled, as GeoJSON needs two. */
export function lineString(line: Int32Array, from = 0, to = line.length / 2): LineString {
  const coordinates = lineLngLat(line, from, to);
  if (coordinates.length === 1) coordinates.push([...coordinates[0]!]);
  return { type: 'LineString', coordinates };
}

/** One line as a LineString, several as a MultiLineString. */
export function oneOrMany(lines: readonly LineString[]): LineString | MultiLineString {
  return lines.length === 1 ? lines[0]! : { type: 'MultiLineString', coordinates: lines.map((l) => l.coordinates) };
}

export const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
