import { describe, expect, it } from 'vitest';
import {
  ALL_NTS_SERIES,
  CANADA_NTS_SERIES,
  NTS_CANADA_BBOX,
  ntsBoundsHalfSeconds,
  ntsCell,
  ntsCellAt,
  ntsCellsInBbox,
  ntsChildren,
  ntsNationalCells,
  parseNts,
  seriesZone,
  type NtsExtent,
  type NtsLevel,
  type NtsRef,
  type TickBox,
} from '../../engines/survey/nts.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

const centre = (cell: { bounds: readonly number[] }): [number, number] => [
  (cell.bounds[0]! + cell.bounds[2]!) / 2,
  (cell.bounds[1]! + cell.bounds[3]!) / 2,
];
const area = (box: TickBox) => (box.east - box.west) * (box.north - box.south);

describe('round trips', () => {
  it('parses the canonical id of 2,000 random cells back to the same cell, at its centre too', () => {
    const next = random(20260501);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const letter = (count: number) => String.fromCharCode(65 + Math.floor(next() * count));
    const number = (count: number) => 1 + Math.floor(next() * count);
    const levels: NtsLevel[] = ['series', 'map_area', 'sheet', 'block', 'unit', 'quarter_unit'];
    for (let i = 0; i < 2000; i++) {
      const series = pick(ALL_NTS_SERIES);
      const zone = seriesZone(series);
      const depth = Math.floor(next() * (zone === 'southern' ? 6 : 3));
      const ref: NtsRef = {
        level: levels[depth]!,
        series,
        mapArea: letter(zone === 'southern' ? 16 : 8),
        sheet: number(16),
        block: letter(12),
        unit: number(100),
        quarterUnit: letter(4),
      };
      const cell = ntsCell(ref);
      expect(parseNts(cell.id)).toEqual(cell);
      expect(parseNts(cell.id.toLowerCase().replace(/-/g, ' '))).toEqual(cell);
      const [lng, lat] = centre(cell);
      expect(ntsCellAt(lng, lat, cell.level)).toEqual(cell);
    }
  });
});

describe('tiling', () => {
  // parents in each band, at every level that has children there
  const parents = ['021', '021H', '021H01', 'L/021-H-01', '037-L/021-H-01', '117', '117D', '340', '340H', '781', '781A'];

  it.each(parents)('children of %s tile it exactly', (id) => {
    const parent = parseNts(id);
    const outer = ntsBoundsHalfSeconds(parent);
    const boxes = ntsChildren(parent).map(ntsBoundsHalfSeconds);
    expect(boxes.length).toBeGreaterThan(1);
    for (const box of boxes) {
      expect(box.west >= outer.west && box.east <= outer.east && box.south >= outer.south && box.north <= outer.north).toBe(true);
    }
    expect(boxes.reduce((sum, box) => sum + area(box), 0)).toBe(area(outer));
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        const overlap = a.west < b.east && b.west < a.east && a.south < b.north && b.south < a.north;
        expect(overlap, `${i} and ${j}`).toBe(false);
      }
    }
  });

  it('has the documented number of children per level and band', () => {
    const counts = Object.fromEntries(parents.map((id) => [id, ntsChildren(parseNts(id)).length]));
    expect(counts).toEqual({
      '021': 16, '021H': 16, '021H01': 12, 'L/021-H-01': 100, '037-L/021-H-01': 4,
      '117': 8, '117D': 16, '340': 8, '340H': 16, '781': 8, '781A': 16,
    });
    expect(ntsChildren(parseNts('117D12'))).toEqual([]);
    expect(ntsChildren(parseNts('A-001-A/021-H-01'))).toEqual([]);
  });
});

describe('the national grid', () => {
  /** What the band rules give for a list of series, counted without the enumerator. */
  function expectedCount(series: readonly number[], level: NtsLevel): number {
    const perSeries = { series: [1, 1], map_area: [16, 8], sheet: [256, 128], block: [3072, 0] } as Record<string, [number, number]>;
    const [southern, northern] = perSeries[level]!;
    return series.reduce((sum, s) => sum + (seriesZone(s) === 'southern' ? southern : northern), 0);
  }

  const counts: string[] = [];
  for (const extent of ['canada', 'grid'] as NtsExtent[]) {
    for (const level of ['series', 'map_area', 'sheet', 'block'] as NtsLevel[]) {
      it(`enumerates ${extent} at ${level}: unique ids, each found again at its centre`, () => {
        const seen = new Set<string>();
        for (const cell of ntsNationalCells(level, extent)) {
          expect(seen.has(cell.id)).toBe(false);
          seen.add(cell.id);
          const [lng, lat] = centre(cell);
          const found = ntsCellAt(lng, lat, level);
          if (found?.id !== cell.id) expect(found?.id, cell.id).toBe(cell.id);
        }
        const series = extent === 'canada' ? CANADA_NTS_SERIES : ALL_NTS_SERIES;
        expect(seen.size).toBe(expectedCount(series, level));
        counts.push(`${extent.padEnd(6)} ${level.padEnd(8)} ${seen.size}`);
      });
    }
  }

  it('reports the counts', () => {
    console.log(`NTS cells per level:\n${counts.join('\n')}`);
    expect(counts).toHaveLength(8);
  });

  it('gives the same sheets through Canada’s bbox', () => {
    expect(NTS_CANADA_BBOX).toEqual([-144, 40, -48, 84]);
    const viaBbox = new Set([...ntsCellsInBbox(NTS_CANADA_BBOX, 'sheet')].map((cell) => cell.id));
    const national = [...ntsNationalCells('sheet')].map((cell) => cell.id);
    expect(viaBbox.size).toBe(national.length);
    expect(national.every((id) => viaBbox.has(id))).toBe(true);
  });
});
