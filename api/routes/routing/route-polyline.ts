/**
 * GET /route?geometry_format=polyline6: the route's line as an encoded polyline at precision 6.
 * The line is already in micro-degrees, so the encoding is exact (no rounding): it carries the
 * same positions as the default GeoJSON LineString in about a quarter of the bytes, and
 * costs less to write. Positions are latitude first, as the encoded polyline format has them.
 */
import { POLYLINE6_VALUE_BYTES, writePolyline6 } from '../../../lib/geo/polyline6.ts';

/** What the default answer has in place of the line when it is written with an empty one. */
const EMPTY_GEOMETRY = Buffer.from('"geometry":{"type":"LineString","coordinates":[]}');

/**
 * The polyline6 answer from the default answer written without its line (`withoutLine`, from
 * the route reply with an empty line): its geometry member replaced by the encoded string, every
 * other member byte for byte as the default answer has it.
 */
export function withPolylineGeometry(withoutLine: Buffer, line: Int32Array): Buffer {
  const at = withoutLine.indexOf(EMPTY_GEOMETRY);
  if (at < 0) throw new Error('route answer without its geometry member');
  const tail = withoutLine.subarray(at + EMPTY_GEOMETRY.length);
  const out = Buffer.allocUnsafe(at + 13 + (line.length / 2) * 2 * (POLYLINE6_VALUE_BYTES + 1) + tail.length);
  withoutLine.copy(out, 0, 0, at);
  let end = at + out.write('"geometry":"', at, 'latin1');
  end = writePolyline6(out, end, line, true);
  out[end++] = 34; // "
  end += tail.copy(out, end);
  return out.subarray(0, end);
}
