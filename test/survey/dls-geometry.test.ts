import { describe, expect, it } from 'vitest';
import {
  DLS_EXTENT,
  DLS_CELL_LEVELS,
  DLS_MERIDIANS,
  DLS_MODEL,
  dlsCell,
  dlsCellAt,
  dlsCellsInBbox,
  dlsFeature,
  DlsParseError,
  parseDls,
  type DlsCell,
  type DlsLevel,
  type DlsRef,
} from '../../engines/survey/dls.ts';
import { maxRange } from '../../engines/survey/dls-model.ts';
import { seededRandom as mulberry32 } from '../../lib/seeded-random.ts';

const CHAIN = 20.1168;
const DEG = Math.PI / 180;
// GRS80, written out here rather than taken from the engine
const A = 6378137;
const E2 = (1 / 298.257222101) * (2 - 1 / 298.257222101);

/** Metres along a parallel spanned by `dLng` degrees at `lat`. */
const alongParallel = (dLng: number, lat: number) =>
  (A * Math.cos(lat * DEG) * Math.abs(dLng) * DEG) / Math.sqrt(1 - E2 * Math.sin(lat * DEG) ** 2);

/** Metres along the meridian between two latitudes, by Simpson's rule on the meridian radius. */
function alongMeridian(south: number, north: number): number {
  const n = 64;
  const h = (north - south) / n;
  let sum = 0;
  for (let i = 0; i <= n; i++) {
    const radius = (A * (1 - E2)) / (1 - E2 * Math.sin((south + i * h) * DEG) ** 2) ** 1.5;
    sum += radius * (i === 0 || i === n ? 1 : i % 2 ? 4 : 2);
  }
  return (sum * h * DEG) / 3;
}

const planarArea = (ring: [number, number][]) => {
  let twice = 0;
  for (let i = 0; i + 1 < ring.length; i++) twice += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return twice / 2;
};

function inside(ring: [number, number][], lng: number, lat: number): boolean {
  let hit = false;
  for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

const township = (meridian: DlsRef['meridian'], range: number, twp: number) =>
  dlsCell({ level: 'township', meridian, range, township: twp });

function partsOf(town: DlsCell, level: DlsLevel): DlsCell[] {
  const cells: DlsCell[] = [];
  for (let section = 1; section <= 36; section++) {
    const base = { meridian: town.meridian, range: town.range, township: town.township, section };
    const refs: DlsRef[] =
      level === 'section'
        ? [{ ...base, level }]
        : level === 'quarter'
          ? (['NE', 'NW', 'SE', 'SW'] as const).map((quarter) => ({ ...base, level, quarter }))
          : Array.from({ length: 16 }, (_, i) => ({ ...base, level, lsd: i + 1 }));
    for (const ref of refs) {
      try {
        cells.push(dlsCell(ref));
      } catch (error) {
        expect(error).toBeInstanceOf(DlsParseError); // cut away by the next meridian
      }
    }
  }
  return cells;
}

describe('model constants', () => {
  it('makes township 1 R1 W4 486 chains wide along the first base line and 483 chains high', () => {
    const [west, south, east, north] = township('W4', 1, 1).bounds;
    expect(south).toBe(49);
    expect(east).toBe(-110);
    expect(alongParallel(east - west, 49)).toBeCloseTo(486 * CHAIN, 2);
    expect(alongMeridian(south, north)).toBeCloseTo(483 * CHAIN, 2);
  });

  it('keeps every township 483 chains high, township 126 reaching 60°N', () => {
    for (const twp of [2, 40, 82, 125]) {
      const [, south, , north] = township('W5', 3, twp).bounds;
      expect(alongMeridian(south, north)).toBeCloseTo(483 * CHAIN, 2);
      expect(alongMeridian(49, south)).toBeCloseTo((twp - 1) * 483 * CHAIN, 1);
    }
    expect(township('W5', 3, 126).bounds[3]).toBe(60);
  });

  it('lays ranges out full width along base lines, as meridians to the correction lines, with a jog there', () => {
    // township 81's south line is a base line: R4 W6 is 486 chains wide there, 3 ranges out from 118°W
    const t81 = township('W6', 4, 81).bounds;
    expect(alongParallel(t81[2] - t81[0], t81[1])).toBeCloseTo(486 * CHAIN, 2);
    expect(alongParallel(-118 - t81[2], t81[1])).toBeCloseTo(3 * 486 * CHAIN, 1);
    // townships 81 and 82 share range lines; 82's north (a correction line) is narrower by convergence
    const t82 = township('W6', 4, 82).bounds;
    expect([t82[0], t82[2]]).toEqual([t81[0], t81[2]]);
    const northWidth = alongParallel(t82[2] - t82[0], t82[3]) / CHAIN;
    expect(northWidth).toBeLessThan(486 - 2);
    expect(northWidth).toBeGreaterThan(486 - 4);
    // township 83 hangs from the base line north of it: wider at its south edge, and offset (the jog)
    const t83 = township('W6', 4, 83).bounds;
    expect(t83[1]).toBe(t82[3]);
    expect(alongParallel(t83[2] - t83[0], t83[1]) / CHAIN).toBeGreaterThan(486);
    expect(t83[0]).not.toBe(t82[0]);
    expect(alongParallel(t82[0] - t83[0], t83[1])).toBeGreaterThan(100);
  });

  it('gives the east column of sections 81 chains and the west column the convergence', () => {
    const one = dlsCell({ level: 'section', meridian: 'W4', range: 10, township: 2, section: 1 });
    const six = dlsCell({ level: 'section', meridian: 'W4', range: 10, township: 2, section: 6 });
    const [sw, se] = one.ring;
    expect(alongParallel(se![0] - sw![0], se![1])).toBeCloseTo(81 * CHAIN, 2);
    const westWidth = alongParallel(six.ring[1]![0] - six.ring[0]![0], six.ring[0]![1]) / CHAIN;
    expect(westWidth).toBeLessThan(81);
    expect(westWidth).toBeGreaterThan(79);
    // rows carrying an east–west road allowance (sections 1–6, 13–18, 25–30) are 81 chains, the others 80
    const height = (section: number) => {
      const b = dlsCell({ level: 'section', meridian: 'W4', range: 10, township: 2, section }).bounds;
      return alongMeridian(b[1], b[3]) / CHAIN;
    };
    expect([1, 7, 13, 19, 25, 31].map((s) => Math.round(height(s) * 1000) / 1000)).toEqual([81, 80, 81, 80, 81, 80]);
  });

  it('numbers sections and LSDs back and forth from the south-east corner', () => {
    const town = township('W3', 12, 40);
    const [west, south, east, north] = town.bounds;
    const centreOf = (section: number, lsd?: number) =>
      dlsCell({ level: lsd ? 'lsd' : 'section', meridian: 'W3', range: 12, township: 40, section, ...(lsd ? { lsd } : {}) }).centre;
    const near = (p: [number, number], lng: number, lat: number) => Math.abs(p[0] - lng) < 0.02 && Math.abs(p[1] - lat) < 0.012;
    expect(near(centreOf(1), east, south)).toBe(true);
    expect(near(centreOf(6), west, south)).toBe(true);
    expect(near(centreOf(7), west, south + (north - south) / 6)).toBe(true);
    expect(near(centreOf(12), east, south + (north - south) / 6)).toBe(true);
    expect(near(centreOf(31), west, north)).toBe(true);
    expect(near(centreOf(36), east, north)).toBe(true);
    const s = dlsCell({ level: 'section', meridian: 'W3', range: 12, township: 40, section: 22 }).bounds;
    const lsdNear = (lsd: number, lng: number, lat: number) => {
      const c = centreOf(22, lsd);
      return Math.abs(c[0] - lng) < 0.004 && Math.abs(c[1] - lat) < 0.003;
    };
    expect(lsdNear(1, s[2], s[1])).toBe(true);
    expect(lsdNear(4, s[0], s[1])).toBe(true);
    expect(lsdNear(5, s[0], s[1] + (s[3] - s[1]) / 4)).toBe(true);
    expect(lsdNear(13, s[0], s[3])).toBe(true);
    expect(lsdNear(16, s[2], s[3])).toBe(true);
  });

  it('uses the published principal meridian and cuts the last range at the next meridian', () => {
    expect(township('E1', 1, 1).bounds[0]).toBeCloseTo(-(97 + 27 / 60 + 28.41 / 3600), 12);
    expect(township('W1', 1, 1).bounds[2]).toBeCloseTo(-97.457892, 6);
    expect(township('W4', 30, 10).bounds[0]).toBe(-114);
    expect(township('W4', 30, 10).ring.every(([lng]) => lng >= -114)).toBe(true);
    expect(maxRange('W4', 10)).toBe(30);
    expect(maxRange('W1', 1)).toBe(34);
  });
});

describe('reverse lookup', () => {
  it('finds every random cell again from its centre (all meridians, levels, townships 1–126)', () => {
    const random = mulberry32(20240611);
    let checked = 0;
    for (let i = 0; i < 6000; i++) {
      const meridian = DLS_MERIDIANS[Math.floor(random() * DLS_MERIDIANS.length)]!;
      const twp = 1 + Math.floor(random() * 126);
      const level = DLS_CELL_LEVELS[Math.floor(random() * 4)]!;
      const ref: DlsRef = { level, meridian, township: twp, range: 1 + Math.floor(random() * maxRange(meridian, twp)) };
      if (level !== 'township') ref.section = 1 + Math.floor(random() * 36);
      if (level === 'quarter') ref.quarter = (['NE', 'NW', 'SE', 'SW'] as const)[Math.floor(random() * 4)]!;
      if (level === 'lsd') ref.lsd = 1 + Math.floor(random() * 16);
      let cell: DlsCell;
      try {
        cell = dlsCell(ref);
      } catch {
        continue; // cut away by the next meridian
      }
      expect(dlsCellAt(cell.centre[0], cell.centre[1], level)?.id, cell.id).toBe(cell.id);
      expect(parseDls(cell.id).id).toBe(cell.id);
      checked++;
    }
    expect(checked).toBeGreaterThan(5900);
  });

  it('puts each random point in exactly one section of its township, the one dlsCellAt names', () => {
    const random = mulberry32(7);
    for (const [meridian, range, twp] of [
      ['W4', 30, 10],
      ['W1', 34, 1],
      ['E1', 5, 60],
      ['W6', 20, 82],
      ['W2', 7, 126],
      ['W5', 2, 3],
    ] as const) {
      const town = township(meridian, range, twp);
      const sections = partsOf(town, 'section');
      const [w, s, e, n] = town.bounds;
      for (let i = 0; i < 300; i++) {
        const lng = w + random() * (e - w);
        const lat = s + random() * (n - s);
        const holders = sections.filter((cell) => inside(cell.ring, lng, lat));
        expect(holders.length).toBe(1);
        expect(dlsCellAt(lng, lat, 'section')?.id).toBe(holders[0]!.id);
      }
    }
  });

  it('gives shared edges to the cell north-east of them, and answers null outside', () => {
    const cell = township('W5', 1, 25);
    expect(dlsCellAt(cell.bounds[0], cell.bounds[1], 'township')?.id).toBe('025-01W5');
    expect(dlsCellAt(cell.bounds[2], cell.bounds[1], 'township')?.id).toBe('025-29W4');
    expect(dlsCellAt(-114, 51, 'township')?.meridian).toBe('W4');
    expect(dlsCellAt(-114.000001, 51, 'township')?.meridian).toBe('W5');
    expect(dlsCellAt(-100, 48.9999, 'lsd')).toBeNull();
    expect(dlsCellAt(-110, 60, 'lsd')).toBeNull();
    expect(dlsCellAt(-110, 59.9999, 'lsd')?.township).toBe(126);
    expect(dlsCellAt(-94, 50, 'section')).toBeNull();
    expect(dlsCellAt(-123.5, 56, 'section')).toBeNull();
    expect(() => dlsCellAt(Number.NaN, 50, 'lsd')).toThrow(RangeError);
  });
});

describe('tiling', () => {
  it.each([
    ['W4', 1, 1],
    ['W4', 30, 10],
    ['W6', 4, 82],
    ['E1', 18, 1],
    ['W1', 20, 126],
  ] as const)('sections, quarters and LSDs of %s R%i T%i fill the township', (meridian, range, twp) => {
    const town = township(meridian, range, twp);
    const area = planarArea(town.ring);
    for (const level of ['section', 'quarter', 'lsd'] as const) {
      const cells = partsOf(town, level);
      const sum = cells.reduce((total, cell) => total + planarArea(cell.ring), 0);
      expect(Math.abs(sum - area) / area).toBeLessThan(1e-9);
      for (const cell of cells) expect(planarArea(cell.ring)).toBeGreaterThan(0);
    }
  });
});

describe('cells in a box', () => {
  it('streams every cell holding a point of the box, and only those', () => {
    const box = [-114.2, 51.0, -113.9, 51.12] as const;
    const cells = [...dlsCellsInBbox(box, 'quarter')];
    const ids = new Set(cells.map((cell) => cell.id));
    expect(ids.size).toBe(cells.length);
    for (const cell of cells) {
      expect(cell.bounds[0] <= box[2] && cell.bounds[2] > box[0] && cell.bounds[1] <= box[3] && cell.bounds[3] > box[1]).toBe(true);
    }
    const random = mulberry32(3);
    for (let i = 0; i < 2000; i++) {
      const lng = box[0] + random() * (box[2] - box[0]);
      const lat = box[1] + random() * (box[3] - box[1]);
      expect(ids.has(dlsCellAt(lng, lat, 'quarter')!.id)).toBe(true);
    }
    expect(cells.some((cell) => cell.meridian === 'W4') && cells.some((cell) => cell.meridian === 'W5')).toBe(true);
  });

  it('streams ~100k LSDs quickly', () => {
    const started = performance.now();
    let count = 0;
    for (const cell of dlsCellsInBbox([-115.2, 51, -113.4, 52.2], 'lsd')) if (cell.level === 'lsd') count++;
    expect(count).toBeGreaterThan(90_000);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('holds every cell within DLS_EXTENT', () => {
    const [w, s, e, n] = DLS_EXTENT;
    expect([s, n]).toEqual([49, 60]);
    expect(w).toBeLessThan(-122.5);
    expect(e).toBeGreaterThan(-95.15);
    expect(township('W6', maxRange('W6', 126), 126).bounds[0]).toBeGreaterThanOrEqual(w);
    expect([...dlsCellsInBbox([-140, 30, -130, 40], 'township')]).toEqual([]);
  });
});

describe('province', () => {
  it.each<[string, string | undefined]>([
    ['01-001-01E1', 'MB'],
    ['01-001-18E1', undefined], // across 95°09′W, the Ontario border
    ['01-001-29W1', 'MB'],
    ['01-001-30W1', 'SK'], // Manitoba ends at the road allowance between ranges 29 and 30 W1
    ['01-050-10W2', 'SK'],
    ['01-050-28W3', 'SK'],
    ['01-050-01W4', 'AB'],
    ['01-025-01W5', 'AB'],
    ['01-025-12W5', 'AB'], // Banff
    ['07-06-005-04W5', 'AB'], // 8 km east of the divide at North Kootenay Pass
    ['01-005-06W5', undefined], // on the divide
    ['01-027-22W5', 'BC'], // Golden, west of the divide
    ['04-11-082-04W6', 'AB'],
    ['01-082-20W6', 'BC'], // Peace River Block, Fort St. John
    ['01-082-13W6', 'AB'], // 7.5 km east of 120°W
    ['06-082-13W6', undefined], // on 120°W
  ])('%s → %s', (id, province) => {
    expect(parseDls(id).province).toBe(province);
  });
});

describe('features and the model statement', () => {
  it('gives a closed counter-clockwise ring and the DLS properties', () => {
    const cell = parseDls('SW-11-082-04W6');
    const feature = dlsFeature(cell);
    expect(feature.properties).toEqual({
      id: 'SW-11-082-04W6',
      unit: 'SW-11-082-04W6',
      survey_system: 'DLS',
      level: 'quarter',
      name: 'SW-11-082-04W6',
      meridian: 'W6',
      range: 4,
      township: 82,
      section: 11,
      quarter: 'SW',
    });
    const ring = feature.geometry.coordinates[0]! as [number, number][];
    expect(ring.length).toBe(5);
    expect(ring[0]).toEqual(ring[4]);
    expect(planarArea(ring)).toBeGreaterThan(0);
    expect(inside(ring, cell.centre[0], cell.centre[1])).toBe(true);
  });

  it('states its measured accuracy', () => {
    expect(DLS_MODEL.accuracy).toMatch(/\d+ m/);
    expect(DLS_MODEL.description).toMatch(/97°27′28\.41″W/);
  });

  it('parses and locates well under a millisecond per call', () => {
    const texts = ['NW-25-24-1-W5', '04-11-082-04W6', 'N.W. 1/4 Sec. 25, Twp. 24, Rge. 1, W. 5th Mer.', '82-4 W6M'];
    const times: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const started = performance.now();
      parseDls(texts[i % texts.length]!);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length * 0.95)]!).toBeLessThan(1);
  });
});
