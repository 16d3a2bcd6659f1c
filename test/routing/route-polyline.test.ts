import { describe, expect, it } from 'vitest';
import { routeJson } from '../../api/replies/route-json.ts';
import { decodePolyline6, POLYLINE6_VALUE_BYTES, writePolyline6 } from '../../lib/geo/polyline6.ts';
import { seededRandom } from '../../lib/seeded-random.ts';

/** The encoded polyline algorithm as published, on [lat, lng] pairs of degrees at `precision` decimals. */
function referenceEncode(points: [number, number][], precision: number): string {
  const factor = 10 ** precision;
  let out = '';
  let previous = [0, 0];
  for (const point of points) {
    const scaled = point.map((v) => Math.round(v * factor));
    for (const k of [0, 1]) {
      let v = scaled[k]! - previous[k]!;
      v = v < 0 ? ~(v << 1) : v << 1;
      while (v >= 0x20) {
        out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
        v >>= 5;
      }
      out += String.fromCharCode(v + 63);
    }
    previous = scaled;
  }
  return out;
}

/** The encoded polyline of a micro-degree line, as the route answer writes it (unescaped). */
function encodePolyline6(line: Int32Array): string {
  const out = Buffer.alloc(line.length * POLYLINE6_VALUE_BYTES);
  return out.toString('latin1', 0, writePolyline6(out, 0, line, false));
}

function randomLine(seed: number, positions: number): Int32Array {
  const random = seededRandom(seed);
  const line = new Int32Array(2 * positions);
  for (let i = 0; i < positions; i++) {
    // Mostly small steps along a road, some jumps across the whole range.
    const jump = random() < 0.05;
    line[2 * i] = jump ? Math.round((random() - 0.5) * 360e6) : (i > 0 ? line[2 * i - 2]! : -123_111_500) + Math.round((random() - 0.5) * 4000);
    line[2 * i + 1] = jump ? Math.round((random() - 0.5) * 180e6) : (i > 0 ? line[2 * i - 1]! : 49_285_600) + Math.round((random() - 0.5) * 4000);
  }
  return line;
}

describe('geometry_format=polyline6', () => {
  it('encodes micro-degrees as the published algorithm does at precision 6, and decodes them back exactly', () => {
    expect(encodePolyline6(Int32Array.from([-120_200_000, 38_500_000, -120_950_000, 40_700_000, -126_453_000, 43_252_000])))
      .toBe(referenceEncode([[38.5, -120.2], [40.7, -120.95], [43.252, -126.453]], 6));
    for (const seed of [1, 2, 3]) {
      const line = randomLine(seed, 2000);
      const pairs: [number, number][] = [];
      for (let i = 0; i < line.length; i += 2) pairs.push([line[i + 1]! / 1e6, line[i]! / 1e6]);
      const text = encodePolyline6(line);
      expect(text).toBe(referenceEncode(pairs, 6));
      expect(decodePolyline6(text)).toEqual(line);
    }
  });

  it('writes the default answer\'s members around the encoded line, escaped for JSON', () => {
    const members = {
      distanceMeters: 2100, durationSeconds: 300,
      warnings: [{ code: 'ENDPOINT_RELOCATED', where: 'origin', message: 'é "quoted" \\' }],
    };
    let backslashes = 0;
    for (const seed of [4, 5, 6]) {
      const line = randomLine(seed, 500);
      const text = encodePolyline6(line);
      backslashes += text.split('\\').length - 1;
      const bytes = routeJson(members, line, 'polyline6');
      const { geometry, ...rest } = JSON.parse(bytes.toString('utf8')) as { geometry: string };
      expect(geometry).toBe(text);
      expect(rest).toEqual(members);
      expect(decodePolyline6(geometry)).toEqual(line);
      // The members keep their order: geometry where the LineString was.
      expect(bytes.toString('utf8').startsWith('{"distanceMeters":2100,"durationSeconds":300,"geometry":"')).toBe(true);
    }
    expect(backslashes).toBeGreaterThan(0);
  });
});
