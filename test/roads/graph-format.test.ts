import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphFileError, checkGraphArrays, readGraphFile, writeGraphFile } from '../../engines/routing/graph-file.ts';
import { EDGE_FLAG, GRAPH_ARRAY_NAMES, NO_EDGE, encodeTenths, modeBit, type GraphArrays } from '../../engines/routing/graph-format.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/**
 * Three nodes; node 1 has no outgoing edge. Edge 0: 0→1 with two shape points, forward;
 * edge 1: 0→2 straight; edge 2: 2→0, the reverse of edge 1 (reads its shape backwards).
 */
function sampleArrays(): GraphArrays {
  const names = ['', 'Rue Saint-Édouard', '温哥华', 'BC 99'];
  const bytes = Buffer.concat(names.map(utf8));
  const offsets = [0];
  for (const n of names) offsets.push(offsets.at(-1)! + utf8(n).length);
  return {
    nodeLng: Int32Array.from([-123_100_000, -123_099_000, -123_098_123]),
    nodeLat: Int32Array.from([49_280_000, 49_281_000, 49_279_999]),
    firstEdge: Uint32Array.from([0, 2, 2, 3]),
    edgeTarget: Uint32Array.from([1, 2, 0]),
    edgeLength: Float32Array.from([150.5, 120.25, 120.25]),
    edgeClass: Uint8Array.from([6, 1, 1]),
    edgeFlags: Uint16Array.from([EDGE_FLAG.toll | EDGE_FLAG.bridge, EDGE_FLAG.link, EDGE_FLAG.link | EDGE_FLAG.reversed]),
    edgeAccess: Uint8Array.from([modeBit('auto') | modeBit('truck'), 15, modeBit('pedestrian')]),
    edgeSpeedAuto: Uint8Array.from([50, 90, 90]),
    edgeSpeedTruck: Uint8Array.from([40, 80, 80]),
    edgeFerrySeconds: Float32Array.from([0, 0, 0]),
    edgeMaxHeight: Uint8Array.from([encodeTenths(3.85, 0xff), 0, 0]),
    edgeMaxWidth: Uint8Array.from([0, encodeTenths(2.5, 0xff), encodeTenths(2.5, 0xff)]),
    edgeMaxLength: Uint16Array.from([encodeTenths(12, 0xffff), 0, 0]),
    edgeMaxWeight: Uint16Array.from([encodeTenths(7.5, 0xffff), 0, 0]),
    edgeMaxAxleLoad: Uint16Array.from([0, 0, encodeTenths(10, 0xffff)]),
    edgeName: Uint32Array.from([1, 2, 2]),
    edgeRef: Uint32Array.from([0, 3, 3]),
    edgeShapeStart: Uint32Array.from([0, 2, 2]),
    edgeShapeCount: Uint32Array.from([2, 0, 0]),
    edgeReverse: Uint32Array.from([NO_EDGE, 2, 1]),
    edgeGrade: Int8Array.from([7, -3, 3]),
    shapeCoords: Int32Array.from([-123_099_700, 49_280_300, -123_099_300, 49_280_700]),
    stringBytes: new Uint8Array(bytes),
    stringOffsets: Uint32Array.from(offsets),
    // Arriving by 2 (2→0), leaving by 0 (0→1) is forbidden to cars and trucks; 2 then 1 (a u-turn) to bicycles.
    turnInEdge: Uint32Array.from([2, 2]),
    turnOutEdge: Uint32Array.from([0, 1]),
    turnModes: Uint8Array.from([modeBit('auto') | modeBit('truck'), modeBit('bicycle')]),
  };
}

describe('roads.graph file format', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-graph-format-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('round-trips every section exactly, each on its own 8-byte aligned buffer', async () => {
    const file = path.join(dir, 'roads.graph');
    const arrays = sampleArrays();
    const size = await writeGraphFile(file, arrays);
    expect((await readFile(file)).length).toBe(size);
    const back = await readGraphFile(file);
    for (const name of GRAPH_ARRAY_NAMES) {
      expect(back[name].constructor, name).toBe(arrays[name].constructor);
      expect(Array.from(back[name]), name).toEqual(Array.from(arrays[name]));
      expect(back[name].byteOffset, name).toBe(0);
    }
  });

  it('exposes nodes, edge ranges, sources, shapes in edge direction, names and limits', async () => {
    const file = path.join(dir, 'accessors.graph');
    await writeGraphFile(file, sampleArrays());
    const g = await RoadGraph.open(file);
    expect([g.nodeCount, g.edgeCount]).toEqual([3, 3]);
    expect(g.nodeLngLat(2)).toEqual([-123.098123, 49.279999]);
    expect([g.edgesOf(0), g.edgesOf(1), g.edgesOf(2)]).toEqual([{ start: 0, end: 2 }, { start: 2, end: 2 }, { start: 2, end: 3 }]);
    expect([0, 1, 2].map((e) => g.edgeSource(e))).toEqual([0, 0, 2]);
    expect(g.edgeShape(0)).toEqual([[-123.1, 49.28], [-123.0997, 49.2803], [-123.0993, 49.2807], [-123.099, 49.281]]);
    expect(Array.from(g.edgeShapeMicro(2))).toEqual([-123_098_123, 49_279_999, -123_100_000, 49_280_000]);
    expect([g.edgeName(0), g.edgeName(1), g.edgeRef(0), g.edgeRef(2)]).toEqual(['Rue Saint-Édouard', '温哥华', null, 'BC 99']);
    expect([g.reverseEdge(0), g.reverseEdge(1), g.reverseEdge(2)]).toEqual([null, 2, 1]);
    expect([g.allows(0, 'truck'), g.allows(0, 'bicycle'), g.allows(2, 'pedestrian'), g.allows(2, 'auto')]).toEqual([true, false, true, false]);
    expect([g.hasFlag(0, 'toll'), g.hasFlag(0, 'tunnel'), g.hasFlag(2, 'reversed')]).toEqual([true, false, true]);
    expect([g.roadClass(0), g.roadClass(1)]).toEqual(['residential', 'trunk']);
    // 3.85 m is kept as 3.8 m: never looser than the tag.
    expect(g.edgeTruckLimits(0)).toEqual({ maxHeight: 3.8, maxWidth: null, maxLength: 12, maxWeight: 7.5, maxAxleLoad: null });
  });

  it('answers turnForbidden per mode from the turn section, false for pairs it does not hold', async () => {
    const file = path.join(dir, 'turns.graph');
    await writeGraphFile(file, sampleArrays());
    const g = await RoadGraph.open(file);
    expect(Array.from(g.arrays.turnModes)).toEqual([3, 4]);
    const forbidden = (i: number, o: number) => (['auto', 'truck', 'bicycle', 'pedestrian'] as const).filter((m) => g.turnForbidden(i, o, modeBit(m)));
    expect([forbidden(2, 0), forbidden(2, 1), forbidden(0, 2), forbidden(1, 2), forbidden(2, 2)]).toEqual([['auto', 'truck'], ['bicycle'], [], [], []]);
    expect(g.turnForbidden(2, 0, modeBit('bicycle') | modeBit('truck'))).toBe(true);

    const empty = sampleArrays();
    empty.turnInEdge = new Uint32Array(0);
    empty.turnOutEdge = new Uint32Array(0);
    empty.turnModes = new Uint8Array(0);
    await writeGraphFile(file, empty);
    const none = await RoadGraph.open(file);
    expect([none.turnForbidden(2, 0, 15), none.turnForbidden(0, 0, 15)]).toEqual([false, false]);
  });

  it('refuses a turn table that is unsorted, repeats a pair, names no edge or binds no mode', () => {
    const withTurns = (inEdge: number[], outEdge: number[], modes: number[]) => ({
      ...sampleArrays(), turnInEdge: Uint32Array.from(inEdge), turnOutEdge: Uint32Array.from(outEdge), turnModes: Uint8Array.from(modes),
    });
    expect(() => checkGraphArrays(withTurns([2, 2], [1, 0], [1, 1]))).toThrow('graph turns are not sorted by (in, out) without repeats at turn 1');
    expect(() => checkGraphArrays(withTurns([2, 2], [0, 0], [1, 2]))).toThrow('not sorted by (in, out) without repeats at turn 1');
    expect(() => checkGraphArrays(withTurns([1, 0], [0, 2], [1, 1]))).toThrow('not sorted');
    expect(() => checkGraphArrays(withTurns([2], [3], [1]))).toThrow('graph turn 0 (2 → 3) names an edge beyond the 3 edges');
    expect(() => checkGraphArrays(withTurns([0], [1], [0]))).toThrow('graph turn 0 (0 → 1) binds no mode');
    expect(() => checkGraphArrays(withTurns([0], [1, 2], [1]))).toThrow('graph section turnOutEdge has 2 entries, expected 1');
  });

  it('encodes limits in tenths, rounding down, never turning a tiny limit into none', () => {
    expect([encodeTenths(null, 255), encodeTenths(0, 255), encodeTenths(4, 255), encodeTenths(4.05, 255)]).toEqual([0, 0, 40, 40]);
    expect([encodeTenths(0.04, 255), encodeTenths(30, 255), encodeTenths(44, 0xffff)]).toEqual([1, 255, 440]);
  });

  it('refuses arrays whose lengths disagree', () => {
    const arrays = sampleArrays();
    arrays.edgeSpeedAuto = Uint8Array.from([50, 90]);
    expect(() => checkGraphArrays(arrays)).toThrow('graph section edgeSpeedAuto has 2 entries, expected 3');
    const wrongEnd = sampleArrays();
    wrongEnd.firstEdge = Uint32Array.from([0, 2, 2, 2]);
    expect(() => checkGraphArrays(wrongEnd)).toThrow('graph firstEdge ends at 2, expected 3 edges');
  });

  it('reads a version-2 file (before edgeGrade) with every grade 0', async () => {
    const file = path.join(dir, 'v2.graph');
    const arrays = sampleArrays();
    await writeGraphFile(file, arrays);
    const bytes = await readFile(file);
    // The same file as format 2 wrote it: no edgeGrade entry in the header (its bytes stay, unreferenced).
    const headerLength = bytes.readUInt32LE(12);
    const header = JSON.parse(bytes.toString('utf8', 16, 16 + headerLength)) as { sections: { name: string }[] };
    header.sections = header.sections.filter((section) => section.name !== 'edgeGrade');
    const v2Header = Buffer.from(JSON.stringify(header).padEnd(headerLength, ' '), 'utf8');
    v2Header.copy(bytes, 16);
    bytes.writeUInt32LE(2, 8);
    await writeFile(file, bytes);

    const back = await readGraphFile(file);
    expect(back.edgeGrade).toBeInstanceOf(Int8Array);
    expect(Array.from(back.edgeGrade)).toEqual([0, 0, 0]);
    for (const name of GRAPH_ARRAY_NAMES.filter((n) => n !== 'edgeGrade')) expect(Array.from(back[name]), name).toEqual(Array.from(arrays[name]));
    // format 3 without the section is a broken file, not an old one
    bytes.writeUInt32LE(3, 8);
    await writeFile(file, bytes);
    await expect(readGraphFile(file)).rejects.toThrow(`${file}: road graph lacks section edgeGrade`);
  });

  it('refuses files that are not graphs, of another version, or truncated', async () => {
    const file = path.join(dir, 'bad.graph');
    await writeGraphFile(file, sampleArrays());
    const good = await readFile(file);

    await writeFile(file, Buffer.concat([Buffer.from('NOTAGRPH'), good.subarray(8)]));
    await expect(readGraphFile(file)).rejects.toThrow(`${file}: not a canmap road graph`);

    const other = Buffer.from(good);
    other.writeUInt32LE(99, 8);
    await writeFile(file, other);
    await expect(readGraphFile(file)).rejects.toThrow(`${file}: road graph format 99, expected 2 to 3; rebuild the roads release`);
    other.writeUInt32LE(1, 8);
    await writeFile(file, other);
    await expect(readGraphFile(file)).rejects.toThrow(`${file}: road graph format 1, expected 2 to 3; rebuild the roads release`);

    await writeFile(file, good.subarray(0, good.length - 4));
    await expect(readGraphFile(file)).rejects.toBeInstanceOf(GraphFileError);
    await expect(readGraphFile(file)).rejects.toThrow('truncated road graph file');
  });
});
