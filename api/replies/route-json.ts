/**
 * GET /route's answer as JSON bytes, written here rather than by the route's compiled response
 * schema: a national route's line is ~9,000 positions, and printing them from the micro-degree
 * integers straight into one buffer costs a fraction of formatting 18,000 doubles. The bytes are
 * the ones the schema's serializer wrote (same members in the same order, each coordinate as
 * JavaScript prints micro / 1e6); RouteResponse stays the documented contract.
 */
import { POLYLINE6_VALUE_BYTES, writePolyline6 } from '../../lib/geo/polyline6.ts';
import type { RouteGeometryFormat, RouteResponse } from '../../schemas/routing-api.ts';

export type RouteMembers = Omit<RouteResponse, 'geometry'>;

/** Longest coordinate text: `-180.123456`. */
const NUMBER_BYTES = 11;
const [MINUS, DOT, ZERO] = [45, 46, 48];
/** '000' … '999' as bytes: digits three at a time. */
const TRIPLES = new Uint8Array(3000);
for (let i = 0; i < 1000; i++) TRIPLES.set([ZERO + Math.floor(i / 100), ZERO + (Math.floor(i / 10) % 10), ZERO + (i % 10)], 3 * i);

/**
 * Writes micro-degrees `micro` (an integer of magnitude below 2^31) at `at` as JSON numbers print
 * micro / 1e6 (shortest round trip: at most six fraction digits, none trailing, `0` for zero);
 * returns the end.
 */
export function writeMicroDegrees(out: Uint8Array, at: number, micro: number): number {
  let v = micro;
  if (v < 0) {
    out[at++] = MINUS;
    v = -v;
  }
  const whole = (v / 1e6) >>> 0;
  const fraction = v - whole * 1e6;
  if (whole >= 1000) {
    at += Buffer.from(out.buffer, out.byteOffset).write(String(whole), at, 'latin1');
  } else {
    const t = 3 * whole;
    if (whole >= 100) out[at++] = TRIPLES[t]!;
    if (whole >= 10) out[at++] = TRIPLES[t + 1]!;
    out[at++] = TRIPLES[t + 2]!;
  }
  if (fraction === 0) return at;
  out[at++] = DOT;
  const thousands = (fraction / 1000) | 0;
  const high = 3 * thousands, low = 3 * (fraction - thousands * 1000);
  out[at] = TRIPLES[high]!;
  out[at + 1] = TRIPLES[high + 1]!;
  out[at + 2] = TRIPLES[high + 2]!;
  out[at + 3] = TRIPLES[low]!;
  out[at + 4] = TRIPLES[low + 1]!;
  out[at + 5] = TRIPLES[low + 2]!;
  at += 6;
  while (out[at - 1] === ZERO) at--;
  return at;
}

/**
 * The answer's JSON: `members` around the line (micro-degrees, lng,lat interleaved), as a GeoJSON
 * LineString or (`polyline6`, geometry_format=polyline6) as an encoded polyline string, exact
 * since the line is micro-degrees.
 */
export function routeJson(members: RouteMembers, line: Int32Array, format: RouteGeometryFormat = 'geojson'): Buffer {
  const polyline = format === 'polyline6';
  const head = `{"distanceMeters":${members.distanceMeters},"durationSeconds":${members.durationSeconds},"geometry":${polyline ? '"' : '{"type":"LineString","coordinates":['}`;
  const tail = `${polyline ? '"' : ']}'}${members.warnings ? `,"warnings":${JSON.stringify(members.warnings)}` : ''}`
    + `${members.truck ? `,"truck":${JSON.stringify(members.truck)}` : ''}}`;
  const lineBytes = (line.length / 2) * (polyline ? 2 * (POLYLINE6_VALUE_BYTES + 1) : 2 * NUMBER_BYTES + 4);
  const out = Buffer.allocUnsafe(Buffer.byteLength(head) + lineBytes + Buffer.byteLength(tail));
  let at = out.write(head, 0, 'latin1');
  if (polyline) at = writePolyline6(out, at, line, true);
  else at = writeCoordinates(out, at, line);
  at += out.write(tail, at, 'utf8');
  return out.subarray(0, at);
}

function writeCoordinates(out: Buffer, at: number, line: Int32Array): number {
  for (let i = 0; i < line.length; i += 2) {
    if (i > 0) out[at++] = 44; // ,
    out[at++] = 91; // [
    at = writeMicroDegrees(out, at, line[i]!);
    out[at++] = 44;
    at = writeMicroDegrees(out, at, line[i + 1]!);
    out[at++] = 93; // ]
  }
  return at;
}
