import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGraphFile, writeGraphFile } from '../../engines/routing/graph-file.ts';
import { NO_EDGE, type GraphArrays } from '../../engines/routing/graph-format.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { computeEdgeGrades, type EdgeGradeStats } from '../../ingest/roads/edge-grades.ts';
import { buildHillArrays, hillDem, hillEdges } from './hill-fixture.ts';

let dir: string;
let graph: RoadGraph;
let stats: EdgeGradeStats;
const asked: [number, number][] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-edge-grades-'));
  const arrays = await buildHillArrays(dir);
  const graded = computeEdgeGrades(arrays, (lng, lat) => {
    asked.push([lng, lat]);
    return hillDem(lng, lat);
  });
  stats = graded.stats;
  graph = new RoadGraph({ ...arrays, edgeGrade: graded.grades });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const grades = (from: string, to: string) => hillEdges(graph, from, to).map((e) => graph.arrays.edgeGrade[e]).sort((a, b) => a! - b!);

describe('edge grades from a DEM', () => {
  it('gives each direction of a street its mean grade, the reverse the negation', () => {
    // A → B: the direct street (+12 %) and the switchback (36 m over 949 m ≈ 3.8 %)
    expect(grades('A', 'B')).toEqual([4, 12]);
    expect(grades('B', 'A')).toEqual([-12, -4]);
    for (let e = 0; e < graph.edgeCount; e++) {
      const r = graph.arrays.edgeReverse[e]!;
      if (r !== NO_EDGE) expect(graph.arrays.edgeGrade[r], `edge ${e}`).toBe(-graph.arrays.edgeGrade[e]! || 0);
    }
  });

  it('grades a one-way edge in its direction only', () => {
    expect(grades('B', 'S')).toEqual([-5]);
    expect(hillEdges(graph, 'S', 'B')).toEqual([]);
  });

  it('stands in the nearest sample with a height for a void end, and leaves an edge without heights at 0', () => {
    expect(grades('V1', 'V2')).toEqual([12]);
    expect(grades('V2', 'V1')).toEqual([-12]);
    expect(grades('W1', 'W2')).toEqual([0]);
    expect(grades('W2', 'W1')).toEqual([0]);
  });

  it('clamps to ±50 % and leaves ferries at 0', () => {
    expect([grades('C1', 'C2'), grades('C2', 'C1')]).toEqual([[50], [-50]]);
    expect([grades('A', 'F'), grades('F', 'A')]).toEqual([[0], [0]]);
  });

  it('samples along the shape about every 30 m, and counts what happened to every edge', () => {
    expect(stats).toMatchObject({ graded: 9, noHeight: 2, ferries: 2, clamped: 2 });
    expect(stats.graded + stats.noHeight + stats.ferries).toBe(graph.edgeCount);
    // the switchback's samples pass by its shape point P, (450, 150) m: ~ (10.005723, 45.001349)
    expect(asked.some(([lng, lat]) => Math.abs(lng - 10.005723) < 2e-4 && Math.abs(lat - 45.001349) < 2e-4)).toBe(true);
    // on planes the net rise is all the relief there is: no ups and downs hidden between the ends
    expect(stats.sampledReliefMetres).toBeCloseTo(stats.netReliefMetres, 0);
    expect(stats.netReliefMetres).toBeGreaterThan(4 * 36);
    // once per segment (not per direction), ceil(length / 30 m) + 1 samples: 300.004 m → 12,
    // 948.6 → 33, 223.6 → 9, 300.004 → 12, 20.0 → 2, 39.9 → 3
    expect(asked.length).toBe(12 + 33 + 9 + 12 + 2 + 3);
  });

  it('round-trips the grades through the graph file', async () => {
    const file = path.join(dir, 'graded.graph');
    await writeGraphFile(file, graph.arrays);
    const back: GraphArrays = await readGraphFile(file);
    expect(back.edgeGrade).toBeInstanceOf(Int8Array);
    expect(Array.from(back.edgeGrade)).toEqual(Array.from(graph.arrays.edgeGrade));
    expect(back.edgeGrade.some((g) => g !== 0)).toBe(true);
  });
});
