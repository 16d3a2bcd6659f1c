/**
 * Terrarium elevation encoding (Mapzen's, which map clients read as `raster-dem` with
 * `encoding: 'terrarium'`): height = R × 256 + G + B / 256 − 32768 metres, so the resolution is
 * 1/256 m and the range −32768 .. 32767.996 m.
 */

export const TERRARIUM_OFFSET = 32768;
/** The smallest step the encoding tells apart, in metres. */
export const TERRARIUM_RESOLUTION = 1 / 256;

/** The [R, G, B] of a height, rounded to the nearest 1/256 m and clamped to the encodable range. */
export function encodeTerrarium(metres: number): [number, number, number] {
  const steps = Math.round((metres + TERRARIUM_OFFSET) * 256);
  const clamped = Math.min(Math.max(steps, 0), 256 ** 3 - 1);
  return [Math.floor(clamped / 65536), Math.floor(clamped / 256) % 256, clamped % 256];
}

export function decodeTerrarium(r: number, g: number, b: number): number {
  return r * 256 + g + b / 256 - TERRARIUM_OFFSET;
}
