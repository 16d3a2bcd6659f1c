import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeTableWriter, PAGE_NODES, UnsortedNodesError } from '../../ingest/osm/node-table.ts';
import { seededRandom } from '../../lib/seeded-random.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-node-table-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the node table', () => {
  it('gives back every node exactly, through a cache of two pages, and null for ids it lacks', async () => {
    const file = path.join(dir, 'nodes.table');
    const writer = new NodeTableWriter(file);
    const count = 5 * PAGE_NODES + 123; // a partial last page
    const idOf = (i: number) => 1000 + 3 * i;
    const lngOf = (i: number) => -123.1 + i * 1e-7 + 1 / 3;
    const latOf = (i: number) => 49.2 + i * 1e-7 - 1 / 7;
    for (let i = 0; i < count; i++) writer.append(idOf(i), lngOf(i), latOf(i));
    const table = writer.finish(1);
    expect(table.cacheSlots).toBe(2);
    expect((await stat(file)).size).toBe(6 * PAGE_NODES * 24);
    const random = seededRandom(7);
    for (let k = 0; k < 20_000; k++) {
      const i = Math.floor(random() * count);
      expect(table.get(idOf(i))).toEqual([lngOf(i), latOf(i)]);
    }
    expect(table.reads).toBeGreaterThan(1000); // pages were evicted and read again
    for (const missing of [0, 999, 1001, idOf(count - 1) + 1, idOf(PAGE_NODES) - 1, idOf(count - 1) + 3]) expect(table.get(missing)).toBeNull();
    expect(table.get(idOf(0))).toEqual([lngOf(0), latOf(0)]);
    expect(table.get(idOf(count - 1))).toEqual([lngOf(count - 1), latOf(count - 1)]);
    table.close();
  });

  it('refuses a node whose id is not above the previous one', () => {
    const writer = new NodeTableWriter(path.join(dir, 'unsorted.table'));
    writer.append(5, 0, 0);
    expect(() => writer.append(5, 1, 1)).toThrow(UnsortedNodesError);
    expect(() => writer.append(4, 1, 1)).toThrow('node 4 comes after node 5: the file is not sorted by type then id');
    writer.abandon();
  });

  it('opens an empty table', () => {
    const table = new NodeTableWriter(path.join(dir, 'empty.table')).finish(1 << 20);
    expect(table.get(1)).toBeNull();
    table.close();
  });
});
