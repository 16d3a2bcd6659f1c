/**
 * Google's encoded polyline algorithm at six decimals ("polyline6"), each position latitude first:
 * Valhalla's shapes and /route's geometry_format=polyline6. Decoding yields the integers the encoder rounded, so a decoded line is
 * exactly the micro-degree line our route answers print (six decimals, none invented).
 */

/** Decodes `encoded` into micro-degrees, lng,lat interleaved (the layout of engines/routing lines). */
export function decodePolyline6(encoded: string): Int32Array {
  const values: number[] = [];
  let at = 0;
  while (at < encoded.length) {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      if (at >= encoded.length) throw new Error('polyline6: truncated value');
      byte = encoded.charCodeAt(at++) - 63;
      if (byte < 0 || byte > 63) throw new Error(`polyline6: invalid character at ${at - 1}`);
      result += (byte & 0x1f) * 2 ** shift;
      shift += 5;
    } while (byte >= 0x20);
    values.push(result % 2 === 1 ? -(result + 1) / 2 : result / 2);
  }
  if (values.length % 2 !== 0) throw new Error('polyline6: odd number of values');
  const line = new Int32Array(values.length);
  let lat = 0;
  let lng = 0;
  for (let i = 0; i < values.length; i += 2) {
    lat += values[i]!;
    lng += values[i + 1]!;
    line[i] = lng;
    line[i + 1] = lat;
  }
  return line;
}

function encodeValue(value: number): string {
  let v = value < 0 ? -2 * value - 1 : 2 * value;
  let out = '';
  while (v >= 0x20) {
    out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
    v = Math.floor(v / 32);
  }
  return out + String.fromCharCode(v + 63);
}

/** Encodes [lng, lat] degree positions as polyline6 (tests, benchmarks and the recorded answers). */
export function encodePolyline6(positions: readonly (readonly [number, number])[]): string {
  let out = '';
  let lat = 0;
  let lng = 0;
  for (const [x, y] of positions) {
    const microLat = Math.round(y * 1e6);
    const microLng = Math.round(x * 1e6);
    out += encodeValue(microLat - lat) + encodeValue(microLng - lng);
    lat = microLat;
    lng = microLng;
  }
  return out;
}

/** Bytes of one encoded value at most: 32-bit zigzag in 5-bit chunks. */
export const POLYLINE6_VALUE_BYTES = 7;
const BACKSLASH = 92;

/** Writes a signed integer as an encoded polyline value at `at` (a backslash doubled, as a JSON string needs it when `json`); returns the end. */
function writeValue(out: Buffer, at: number, value: number, json: boolean): number {
  let v = (value << 1) ^ (value >> 31);
  while (v >= 0x20) {
    out[at++] = (0x20 | (v & 0x1f)) + 63;
    v >>>= 5;
  }
  const last = v + 63;
  if (json && last === BACKSLASH) out[at++] = BACKSLASH;
  out[at++] = last;
  return at;
}

/**
 * The encoded polyline (precision 6) of a line in micro-degrees (lng,lat interleaved), written at
 * `at` of `out`; with `json`, escaped for a JSON string (only the backslash needs it: encoded
 * characters are 63 to 126). Returns the end.
 */
export function writePolyline6(out: Buffer, at: number, line: Int32Array, json: boolean): number {
  let lat = 0;
  let lng = 0;
  for (let i = 0; i < line.length; i += 2) {
    at = writeValue(out, at, line[i + 1]! - lat, json);
    at = writeValue(out, at, line[i]! - lng, json);
    lng = line[i]!;
    lat = line[i + 1]!;
  }
  return at;
}
