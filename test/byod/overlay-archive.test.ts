import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tileIdToZxy } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenArchives } from '../../io/byod/open-archives.ts';
import { OverlayArchiveError } from '../../io/byod/overlay-archive.ts';
import { zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';
import { manyEntriesLeaf, manyLeaves, TILE } from './bombs.ts';

/*
 * Serving uploaded archives (issue 28 item 2): what the API holds for their directories is bounded
 * by bytes across every open archive, and an archive over the upload bounds (one stored before
 * they were enforced) costs no more than they allow: its tiles are refused, not inflated.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-byod-serve-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const id = (n: number) => n.toString(16).padStart(24, '0');
const FIRST_Z11 = zxyToTileId(11, 0, 0);

describe('OpenArchives', () => {
  it('keeps the directories of every open archive within its byte budget, and serves every tile', async () => {
    const file = path.join(dir, 'five-leaves.pmtiles');
    await writeFile(file, manyLeaves(5, 99_000));
    const budget = 8 * 1024 * 1024;
    const archives = new OpenArchives({ directoryBytes: budget });
    let worstMs = 0;
    try {
      for (let a = 1; a <= 3; a++) {
        for (const index of [0, 150_000, 250_000, 350_000, 494_999]) {
          const archive = await archives.get(id(a), file);
          const [z, x, y] = tileIdToZxy(FIRST_Z11 + index);
          const started = performance.now();
          expect(await archive.tile(z, x, y)).toEqual(TILE);
          worstMs = Math.max(worstMs, performance.now() - started);
          expect(archives.directories.residentBytes).toBeLessThanOrEqual(budget);
        }
      }
      expect(archives.directories.residentBytes).toBeGreaterThan(0);
      for (let a = 1; a <= 3; a++) archives.forget(id(a));
      expect(archives.directories.residentBytes).toBe(0);
    } finally {
      await archives.close();
    }
    // A leaf of 99,000 entries: inflated on the thread pool, parsed in a few ms (generous ceiling).
    console.log(`worst uncached tile read: ${worstMs.toFixed(1)} ms`);
    expect(worstMs).toBeLessThan(500);
  });

  it('refuses the tiles of a stored archive over the bounds without inflating its 1,999,000-entry leaf', async () => {
    const file = path.join(dir, 'bomb.pmtiles');
    await writeFile(file, manyEntriesLeaf(1_999_000));
    const archives = new OpenArchives();
    try {
      const archive = await archives.get(id(9), file);
      const refusal = await archive.tile(11, 0, 0).then(() => null, (err: Error) => err);
      expect(refusal).toBeInstanceOf(OverlayArchiveError);
      expect(refusal?.message).toBe('a directory does not inflate within 4194304 bytes');
      expect(archives.directories.residentBytes).toBeLessThan(1024);
    } finally {
      await archives.close();
    }
  });
});
