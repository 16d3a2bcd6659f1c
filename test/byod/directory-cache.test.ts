import { describe, expect, it } from 'vitest';
import { DirectoryCache, type PackedDirectory } from '../../engines/byod/directory-cache.ts';

const directory = (entries: number): PackedDirectory => ({
  tileIds: new Float64Array(entries), offsets: new Float64Array(entries), lengths: new Float64Array(entries), runLengths: new Float64Array(entries),
});

describe('DirectoryCache', () => {
  it('keeps a loaded directory and answers it again without loading', async () => {
    const cache = new DirectoryCache(1 << 20);
    let loads = 0;
    const load = async () => (loads += 1, directory(10));
    const first = await cache.get('a:0', load);
    expect(await cache.get('a:0', load)).toBe(first);
    expect(loads).toBe(1);
    expect(cache.residentBytes).toBe(320);
  });

  it('does not keep a directory whose load was under way when its overlay was dropped', async () => {
    const cache = new DirectoryCache(1 << 20);
    let finish!: (d: PackedDirectory) => void;
    const loading = cache.get('a:0', () => new Promise((resolve) => (finish = resolve)));
    cache.drop('a:');
    finish(directory(10));
    expect((await loading).tileIds.length).toBe(10);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.residentBytes).toBe(0);
  });
});
