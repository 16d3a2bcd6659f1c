import { describe, expect, it } from 'vitest';
import { sanitizeAt } from '../../api/params/transit/at.ts';
import { sanitizeNear } from '../../api/params/transit/near.ts';
import { StopGrid } from '../../engines/transit/stop-grid.ts';
import { EARTH_RADIUS_M, haversineMetres } from '../../lib/geo/haversine.ts';

describe('sanitizeNear', () => {
  it('accepts lng,lat with spaces and signs', () => {
    expect(sanitizeNear('-73.5673,45.5017')).toEqual({ ok: true, value: { lng: -73.5673, lat: 45.5017 } });
    expect(sanitizeNear(' -73.5 , +45 ')).toEqual({ ok: true, value: { lng: -73.5, lat: 45 } });
    expect(sanitizeNear('180,-90')).toEqual({ ok: true, value: { lng: 180, lat: -90 } });
    expect(sanitizeNear('.5,5.')).toEqual({ ok: true, value: { lng: 0.5, lat: 5 } });
  });

  it.each([
    [undefined, 'near is required'],
    ['', 'near is required'],
    ['   ', 'near is required'],
    ['-73.5', 'near must be lng,lat'],
    ['-73.5,45.5,3', 'near must be lng,lat'],
    ['a,b', 'near must be lng,lat'],
    ['NaN,45', 'near must be lng,lat'],
    ['Infinity,45', 'near must be lng,lat'],
    ['1e3,45', 'near must be lng,lat'],
    ['0x10,45', 'near must be lng,lat'],
    [',45', 'near must be lng,lat'],
    ['-73.5,', 'near must be lng,lat'],
    ['9'.repeat(400) + ',45', 'near longitude must be between -180 and 180'],
    ['180.0001,45', 'near longitude must be between -180 and 180'],
    ['45.5,-95', 'near latitude must be between -90 and 90'],
    ['-73.5,90.5', 'near latitude must be between -90 and 90'],
    [['1,2', '3,4'], 'near is required'],
    [42, 'near is required'],
  ])('rejects %j naming near', (raw, message) => {
    const result = sanitizeNear(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(message);
  });
});

describe('sanitizeAt', () => {
  const seconds = (iso: string) => Date.parse(iso) / 1000;

  it('reads Z and offsets as instants', () => {
    expect(sanitizeAt('2026-03-08T14:30:00Z')).toEqual({ ok: true, value: seconds('2026-03-08T14:30:00Z') });
    expect(sanitizeAt('2026-03-08T09:30:00-05:00')).toEqual({ ok: true, value: seconds('2026-03-08T14:30:00Z') });
    expect(sanitizeAt('2026-03-08T09:30-0500')).toEqual({ ok: true, value: seconds('2026-03-08T14:30:00Z') });
    expect(sanitizeAt('2026-03-08T20:00+05:30')).toEqual({ ok: true, value: seconds('2026-03-08T14:30:00Z') });
    expect(sanitizeAt('2026-03-08t14:30:00z')).toEqual({ ok: true, value: seconds('2026-03-08T14:30:00Z') });
    expect(sanitizeAt('2026-03-08T14:30:00.250Z')).toEqual({ ok: true, value: seconds('2026-03-08T14:30:00Z') + 0.25 });
    expect(sanitizeAt('2024-02-29T00:00:00Z').ok).toBe(true);
  });

  it('treats a space in the sign position as the + a query string decoded', () => {
    expect(sanitizeAt('2026-03-08T15:30:00 01:00')).toEqual({ ok: true, value: seconds('2026-03-08T14:30:00Z') });
  });

  it('keeps two-digit years as years, not 19xx', () => {
    const r = sanitizeAt('0050-01-01T00:00:00Z');
    expect(r.ok && new Date(r.value * 1000).getUTCFullYear()).toBe(50);
  });

  it('defaults to now', () => {
    expect(sanitizeAt(undefined, () => 1_700_000_000_000)).toEqual({ ok: true, value: 1_700_000_000 });
  });

  it.each([
    ['2026-03-08T14:30:00', 'at must carry Z or a UTC offset'],
    ['2026-03-08T14:30', 'at must carry Z or a UTC offset'],
    ['2026-03-08', 'at must include a time of day'],
    ['', 'at must be an ISO 8601 instant'],
    ['garbage', 'at must be an ISO 8601 instant'],
    ['now', 'at must be an ISO 8601 instant'],
    ['1741444200', 'at must be an ISO 8601 instant'],
    ['2026-03-08 14:30:00Z', 'at must be an ISO 8601 instant'],
    ['2026-02-30T10:00:00Z', 'at is not a valid date and time'],
    ['2025-02-29T10:00:00Z', 'at is not a valid date and time'],
    ['2026-13-01T10:00:00Z', 'at is not a valid date and time'],
    ['2026-03-08T24:00:00Z', 'at is not a valid date and time'],
    ['2026-03-08T10:60:00Z', 'at is not a valid date and time'],
    ['2026-03-08T10:00:00+25:00', 'at has an invalid UTC offset'],
    ['2026-03-08T10:00:00+05:75', 'at has an invalid UTC offset'],
    ['2026-03-08T10:00:00ZZ', 'at must be an ISO 8601 instant'],
  ])('rejects %j naming at', (raw, message) => {
    const result = sanitizeAt(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(message);
  });

  it('rejects non-strings (repeated parameters) naming at', () => {
    const result = sanitizeAt(['2026-03-08T14:30:00Z', '2026-03-08T14:30:00Z']);
    expect(result.ok).toBe(false);
  });
});

describe('StopGrid', () => {
  it('uses R = 6,371,008.8 m', () => {
    expect(EARTH_RADIUS_M).toBe(6_371_008.8);
    // one degree of latitude
    expect(haversineMetres(0, 0, 0, 1)).toBeCloseTo((Math.PI * 6_371_008.8) / 180, 6);
  });

  it('finds exactly the points within the radius, nearest first, across the antimeridian', () => {
    const points = [
      { item: 0, lng: -73.5673, lat: 45.5017 },
      { item: 1, lng: -73.5673, lat: 45.5017 + 0.0089 }, // ≈ 990 m north
      { item: 2, lng: -73.5673, lat: 45.5017 + 0.0091 }, // ≈ 1012 m north
      { item: 3, lng: 179.999, lat: 0 },
      { item: 4, lng: -179.999, lat: 0 },
    ];
    const grid = StopGrid.build(points, 5);
    const hits = grid.within(-73.5673, 45.5017, 1000, 10);
    expect(hits.map((h) => h.item)).toEqual([0, 1]);
    expect(hits[1]!.distance).toBeCloseTo(haversineMetres(-73.5673, 45.5017, -73.5673, 45.5106), 6);
    expect(grid.within(-73.5673, 45.5017, 1000, 1).map((h) => h.item)).toEqual([0]);
    expect(grid.within(180, 0, 500, 10).map((h) => h.item).sort()).toEqual([3, 4]);
    // the same with enough occupied cells elsewhere that the cell-probing path is taken
    const filler = Array.from({ length: 2000 }, (_, i) => ({ item: 5 + i, lng: 10 + (i % 50) * 0.05, lat: 10 + Math.floor(i / 50) * 0.05 }));
    const busy = StopGrid.build([...points, ...filler], 2005);
    expect(busy.within(180, 0, 500, 10).map((h) => h.item).sort()).toEqual([3, 4]);
    expect(busy.within(-179.9995, 0, 500, 10).map((h) => h.item).sort()).toEqual([3, 4]);
    expect(busy.within(-73.5673, 45.5017, 1000, 10).map((h) => h.item)).toEqual([0, 1]);
  });

  it('matches a brute-force scan on random points', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const points = Array.from({ length: 3000 }, (_, item) => ({ item, lng: -74 + random() * 0.6, lat: 45.3 + random() * 0.4 }));
    const grid = StopGrid.build(points, points.length);
    for (let q = 0; q < 50; q++) {
      const lng = -74 + random() * 0.6, lat = 45.3 + random() * 0.4, radius = 50 + random() * 9950;
      const expected = points
        .map((p) => ({ item: p.item, distance: haversineMetres(lng, lat, p.lng, p.lat) }))
        .filter((h) => h.distance <= radius)
        .sort((a, b) => a.distance - b.distance || a.item - b.item)
        .slice(0, 100);
      expect(grid.within(lng, lat, radius, 100)).toEqual(expected);
    }
  });

  it('refuses a radius that would scan without bound', () => {
    const grid = StopGrid.build([{ item: 0, lng: 0, lat: 0 }], 1);
    expect(() => grid.within(0, 0, Infinity, 10)).toThrow(RangeError);
    expect(() => grid.within(0, 0, NaN, 10)).toThrow(RangeError);
  });

  it('answers near the poles', () => {
    const grid = StopGrid.build([{ item: 0, lng: 10, lat: 89.999 }], 1);
    expect(grid.within(-170, 89.999, 500, 10).map((h) => h.item)).toEqual([0]);
  });
});
