import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decode } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spriteFileNames, type SpriteIndex } from '../../engines/assets/sprite-file.ts';
import { buildSprites } from '../../ingest/assets/build-sprites.ts';
import { allIconNames } from '../../ingest/assets/icon-map.ts';
import { SPRITE_SHEETS } from '../../schemas/assets-release.ts';
import { sharedData } from '../support/paths.ts';
import { styleIconNames } from './style-icons.ts';

let dir = '';
let files: string[] = [];

const readIndex = async (file: string): Promise<SpriteIndex> => JSON.parse(await readFile(path.join(dir, file), 'utf8'));
const readPng = async (file: string) => decode(await readFile(path.join(dir, file)));

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-sprites-'));
  files = (await buildSprites(dir)).files;
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('sprite sheets', () => {
  it('writes light, dark, muted-light and muted-dark at 1x and 2x', () => {
    expect(files.sort()).toEqual(SPRITE_SHEETS.flatMap((s) => [1, 2].flatMap((r) => Object.values(spriteFileNames(s, r)))).sort());
  });

  it.each(SPRITE_SHEETS)('%s: every entry lies inside the PNG, 2x is exactly twice 1x, pixelRatio matches, icons are drawn', async (sheet) => {
    const one = await readIndex(`${sheet}.json`);
    const two = await readIndex(`${sheet}@2x.json`);
    const png1 = await readPng(`${sheet}.png`);
    const png2 = await readPng(`${sheet}@2x.png`);
    expect(png1.channels).toBe(4);
    expect([png2.width, png2.height]).toEqual([png1.width * 2, png1.height * 2]);
    expect(Object.keys(two)).toEqual(Object.keys(one));
    for (const [name, e] of Object.entries(one)) {
      expect(e.pixelRatio).toBe(1);
      expect(two[name]).toEqual({ x: e.x * 2, y: e.y * 2, width: e.width * 2, height: e.height * 2, pixelRatio: 2 });
      for (const [entry, png] of [[e, png1], [two[name]!, png2]] as const) {
        expect(entry.x + entry.width <= png.width && entry.y + entry.height <= png.height, `${name} inside ${sheet}`).toBe(true);
        let opaque = 0;
        for (let y = entry.y; y < entry.y + entry.height; y++) {
          for (let x = entry.x; x < entry.x + entry.width; x++) if (png.data[(y * png.width + x) * 4 + 3]! > 0) opaque += 1;
        }
        expect(opaque, `${name} in ${sheet} draws something`).toBeGreaterThan(entry.width * entry.height * 0.15);
      }
    }
    // No two icons overlap.
    const boxes = Object.values(one);
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true);
    }
  });

  it('covers every icon name the generated styles can ask for, and has nothing they never ask for', async () => {
    const wanted = styleIconNames();
    expect(wanted.size).toBeGreaterThan(40);
    for (const sheet of SPRITE_SHEETS) {
      const names = new Set(Object.keys(await readIndex(`${sheet}.json`)));
      expect([...wanted].filter((n) => !names.has(n)), `missing from ${sheet}`).toEqual([]);
      expect([...names].filter((n) => !wanted.has(n)), `unused in ${sheet}`).toEqual([]);
    }
    expect(allIconNames()).toEqual([...wanted].sort());
  });

  it('covers every icon of the reference protomaps sheets (v4) with their sizes and pixel ratios', async () => {
    const ours = await readIndex('light.json');
    const ours2 = await readIndex('light@2x.json');
    for (const [refSheet, ourSheet] of [['light', 'light'], ['dark', 'dark'], ['grayscale', 'muted-light'], ['black', 'muted-dark']]) {
      const ref: SpriteIndex = JSON.parse(await readFile(sharedData('tiles/glyphs-sprites/sprites/v4', `${refSheet}.json`), 'utf8'));
      const ref2: SpriteIndex = JSON.parse(await readFile(sharedData('tiles/glyphs-sprites/sprites/v4', `${refSheet}@2x.json`), 'utf8'));
      const mine = await readIndex(`${ourSheet}.json`);
      const covered = Object.keys(ref).filter((n) => n in mine);
      console.log(`reference ${refSheet}: ${covered.length} of ${Object.keys(ref).length} icon names covered by ${ourSheet}`);
      expect(covered).toEqual(Object.keys(ref));
      for (const name of covered) {
        expect([ours[name]!.width, ours[name]!.height], name).toEqual([ref[name]!.width, ref[name]!.height]);
        expect([ours2[name]!.width, ours2[name]!.pixelRatio], name).toEqual([ref2[name]!.width, ref2[name]!.pixelRatio]);
      }
    }
  });
});
