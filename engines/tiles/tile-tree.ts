import { rmSync } from 'node:fs';
import path from 'node:path';
import { clipFeature } from './clip.ts';
import { readHeader, readRecord, writeRecord } from './feature-record.ts';
import { TILE_BUFFER, TILE_EXTENT } from './layer-spec.ts';
import { zxyToTileId } from './pmtiles/tile-id.ts';
import { readRecords, RecordWriter } from './record-file.ts';
import type { TileFeature } from './tile-feature.ts';
import type { TileMaker } from './tile-maker.ts';
import type { TileOutput } from './tile-output.ts';

/**
 * The one tiling walk, depth first from tile 0/0/0: a node is a tile and the features that touch
 * it (plus its buffer), already cut to it. Each node makes its tile, then cuts its features to its
 * four children (a feature crossing a child's edge goes to each child it touches) and recurses
 * into them in tile-id order, down to the deepest zoom its features reach.
 *
 * Where a node's features live is the only choice: a node small enough (`inMemoryFeatures`,
 * `inMemoryBytes`) is read into memory and its whole subtree cut there; a larger one is streamed
 * from its partition file, record by record, into its tile and its children's partition files,
 * and the file is deleted. Memory is bounded by the in-memory caps whatever the input's size;
 * disk holds at most the pending siblings' partitions along the current path.
 */

/** Write buffer of a child's partition file: four are open per streamed node, on each thread. */
const PARTITION_CHUNK = 1 << 20;

export interface Partition {
  path: string;
  count: number;
  bytes: number;
}

export interface TreeOptions {
  maker: TileMaker;
  output: TileOutput;
  workDir: string;
  inMemoryFeatures: number;
  inMemoryBytes: number;
  /**
   * Where subtrees go instead of being walked here: those of `zoom`, and those of partition files
   * of at most `features` features above it; each with its partition file (which `take` owns), in
   * tile-id order.
   */
  handOff?: { zoom: number; features: number; take(part: Partition, z: number, x: number, y: number): Promise<void> };
}

/** Tiles the whole tree; returns how many tiles were made streaming from partition files. */
export async function tileTree(root: Partition, options: TreeOptions): Promise<number> {
  return tileSubtree(root, 0, 0, 0, options);
}

/** Tiles the subtree of z/x/y whose features the partition holds (and removes it). */
export async function tileSubtree(part: Partition, z: number, x: number, y: number, options: TreeOptions): Promise<number> {
  const streamed = { tiles: 0 };
  await tileNode(part, z, x, y, { ...options, streamed });
  return streamed.tiles;
}

type WalkOptions = TreeOptions & { streamed: { tiles: number } };

/** The tile's box in world coordinates, grown by the buffer. */
function bufferedBox(z: number, x: number, y: number): [number, number, number, number] {
  const n = 2 ** z;
  const b = TILE_BUFFER / TILE_EXTENT;
  return [(x - b) / n, (y - b) / n, (x + 1 + b) / n, (y + 1 + b) / n];
}

/** The four children in tile-id order, so every zoom's tiles come out in id order. */
function children(z: number, x: number, y: number): [number, number][] {
  const kids: [number, number][] = [[2 * x, 2 * y], [2 * x + 1, 2 * y], [2 * x, 2 * y + 1], [2 * x + 1, 2 * y + 1]];
  return kids.map((k) => [zxyToTileId(z + 1, ...k), k] as const).sort((a, b) => a[0] - b[0]).map(([, k]) => k);
}

async function tileNode(part: Partition, z: number, x: number, y: number, options: WalkOptions): Promise<void> {
  if (part.count > options.inMemoryFeatures || part.bytes > options.inMemoryBytes) {
    await tileOnDisk(part, z, x, y, options);
    return;
  }
  const features: TileFeature[] = [];
  for (const [buffer, offset] of readRecords(part.path)) features.push(readRecord(buffer, offset));
  rmSync(part.path);
  await tileInMemory(features, z, x, y, options);
}

async function tileInMemory(features: readonly TileFeature[], z: number, x: number, y: number, options: WalkOptions): Promise<void> {
  const { maker } = options;
  maker.begin(z, x, y);
  let deepest = -1;
  for (const f of features) {
    maker.add(f);
    if (f.maxZoom > deepest) deepest = f.maxZoom;
  }
  const made = maker.finish();
  if (made) await options.output.add(z, x, y, made);
  if (deepest <= z) return;
  const kids = children(z, x, y).map(([cx, cy]) => ({ x: cx, y: cy, box: bufferedBox(z + 1, cx, cy), features: [] as TileFeature[] }));
  for (const f of features) {
    if (f.maxZoom <= z) continue;
    for (const { box: [x0, y0, x1, y1], features: inside } of kids) {
      if (f.maxX < x0 || f.minX > x1 || f.maxY < y0 || f.minY > y1) continue;
      const cut = clipFeature(f, x0, y0, x1, y1);
      if (cut) inside.push(cut);
    }
  }
  const handOff = options.handOff?.zoom === z + 1 ? options.handOff : null;
  for (const kid of kids) {
    if (handOff && kid.features.length) {
      const file = new RecordWriter(path.join(options.workDir, `part-${z + 1}-${kid.x}-${kid.y}`), PARTITION_CHUNK);
      for (const f of kid.features) writeRecord(f, file);
      file.close();
      await handOff.take({ path: file.path, count: file.count, bytes: file.bytes }, z + 1, kid.x, kid.y);
    } else if (kid.features.length) await tileInMemory(kid.features, z + 1, kid.x, kid.y, options);
    kid.features = [];
  }
}

async function tileOnDisk(part: Partition, z: number, x: number, y: number, options: WalkOptions): Promise<void> {
  const { maker } = options;
  options.streamed.tiles += 1;
  const places = children(z, x, y).map(([cx, cy]) => ({ x: cx, y: cy, box: bufferedBox(z + 1, cx, cy) }));
  const sole = soleChild(part.path, places.map((p) => p.box), z);
  if (sole >= 0) {
    // Every record goes to one child unchanged (a region's data above the zoom where it spreads): it takes this very file.
    maker.begin(z, x, y);
    for (const [buffer, offset] of readRecords(part.path)) if (maker.mayShow(readHeader(buffer, offset))) maker.add(readRecord(buffer, offset));
    const made = maker.finish();
    if (made) await options.output.add(z, x, y, made);
    await descend(part, z + 1, places[sole]!.x, places[sole]!.y, options);
    return;
  }
  const kids = places.map((p) => ({ ...p, file: new RecordWriter(path.join(options.workDir, `part-${z + 1}-${p.x}-${p.y}`), PARTITION_CHUNK) }));
  maker.begin(z, x, y);
  try {
    for (const [buffer, offset, size] of readRecords(part.path)) {
      const header = readHeader(buffer, offset);
      let feature: TileFeature | undefined;
      if (maker.mayShow(header)) maker.add((feature = readRecord(buffer, offset)));
      if (header.maxZoom <= z) continue;
      const { minX, minY, maxX, maxY } = header;
      for (const { box: [x0, y0, x1, y1], file } of kids) {
        if (maxX < x0 || minX > x1 || maxY < y0 || minY > y1) continue;
        if (minX >= x0 && maxX <= x1 && minY >= y0 && maxY <= y1) {
          file.copy(buffer, offset, size);
          continue;
        }
        feature ??= readRecord(buffer, offset);
        const cut = clipFeature(feature, x0, y0, x1, y1);
        if (cut) writeRecord(cut, file);
      }
    }
  } finally {
    for (const { file } of kids) file.close();
  }
  rmSync(part.path);
  const made = maker.finish();
  if (made) await options.output.add(z, x, y, made);
  for (const { x: cx, y: cy, file } of kids) {
    if (file.count === 0) rmSync(file.path);
    else await descend({ path: file.path, count: file.count, bytes: file.bytes }, z + 1, cx, cy, options);
  }
}

/** A child's partition to its walk: here, or handed off. */
function descend(part: Partition, z: number, x: number, y: number, options: WalkOptions): Promise<void> {
  const handOff = options.handOff;
  if (handOff && (z === handOff.zoom || part.count <= handOff.features)) return handOff.take(part, z, x, y);
  return tileNode(part, z, x, y, options);
}

/**
 * The child (index into `boxes`) that every record of the file would go to unchanged — each
 * inside its box, touching no other, and shown below `z` — or -1. Stops at the first record that
 * is not, so a file whose records spread costs a few reads.
 */
function soleChild(file: string, boxes: readonly [number, number, number, number][], z: number): number {
  let sole = -1;
  for (const [buffer, offset] of readRecords(file)) {
    if (buffer[offset + 12]! <= z) return -1;
    const { minX, minY, maxX, maxY } = readHeader(buffer, offset);
    let hit = -1;
    for (let k = 0; k < boxes.length; k++) {
      const [x0, y0, x1, y1] = boxes[k]!;
      if (maxX < x0 || minX > x1 || maxY < y0 || minY > y1) continue;
      if (hit >= 0 || minX < x0 || maxX > x1 || minY < y0 || maxY > y1) return -1;
      hit = k;
    }
    if (hit < 0 || (sole >= 0 && hit !== sole)) return -1;
    sole = hit;
  }
  return sole;
}
