import { describe, expect, it } from 'vitest';
import { routeJson, writeMicroDegrees } from '../../api/replies/route-json.ts';

const printed = (micro: number) => {
  const out = Buffer.alloc(16);
  return out.toString('latin1', 0, writeMicroDegrees(out, 0, micro));
};

describe('route JSON written from micro-degrees', () => {
  it('prints each coordinate exactly as JSON prints micro / 1e6', () => {
    const edges = [0, 1, -1, 2_147_483_647, -2_147_483_648, 1_000_000_000, 9, 10, -10, 100_000, -500_000, 999_999, -999_999, 1_000_000, 10_000_000, -123_111_500, 49_285_600, 180_000_000, -180_000_000, 90_000_000, -89_999_999];
    let seed = 1;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const values = [...edges, ...Array.from({ length: 20_000 }, () => Math.round((random() - 0.5) * 360e6))];
    expect(values.map(printed)).toEqual(values.map((v) => String(v / 1e6)));
  });

  it('writes the members around the line as the response schema orders them', () => {
    const line = Int32Array.from([-123_111_500, 49_285_600, -123_100_300, 49_268_000]);
    const members = {
      distanceMeters: 2100, durationSeconds: 300,
      warnings: [{ code: 'CLOSURE_SCHEDULED_NEAR_ROUTE', where: 'Main "St"', message: 'é\u2028\\', effectiveFrom: '2026-01-01T00:00:00Z' }],
      truck: { validation: { compliant: true, endpointsReached: true, findings: [] } },
    };
    const { warnings, truck, ...head } = members;
    const expected = JSON.stringify({ ...head, geometry: { type: 'LineString', coordinates: [[-123.1115, 49.2856], [-123.1003, 49.268]] }, warnings, truck });
    expect(routeJson(members, line).toString('utf8')).toBe(expected);
    expect(routeJson(head, line).toString('utf8')).toBe('{"distanceMeters":2100,"durationSeconds":300,"geometry":{"type":"LineString","coordinates":[[-123.1115,49.2856],[-123.1003,49.268]]}}');
  });
});
