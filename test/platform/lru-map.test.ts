import { describe, expect, it } from 'vitest';
import { LruMap } from '../../lib/lru-map.ts';

describe('LruMap', () => {
  it('forgets the least recently used entry beyond its capacity; a read counts as a use', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect(map.get('b')).toBeUndefined();
    expect([map.get('a'), map.get('c'), map.size]).toEqual([1, 3, 2]);
    map.set('a', 10);
    map.set('d', 4);
    expect([map.get('a'), map.get('c'), map.get('d')]).toEqual([10, undefined, 4]);
  });
});
