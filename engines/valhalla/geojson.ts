/** GeoJSON lines of our answers from micro-degree lines (six decimals exactly). */

/** Degrees of micro-degree line `line` as [lng, lat] positions, six decimals. */
function lineLngLat(line: Int32Array, from = 0, to = line.length / 2): [number, number][] {
  const positions: [number, number][] = [];
  for (let i = from; i < to; i++) positions.push([line[2 * i]! / 1e6, line[2 * i + 1]! / 1e6]);
  return positions;
}

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
