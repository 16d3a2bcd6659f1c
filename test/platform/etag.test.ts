import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits } from '../../api/replies/etag.ts';

describe('If-None-Match (RFC 9110 §13.1.2, weak comparison)', () => {
  it.each([
    ['"r1"', true],
    ['W/"r1"', true],
    ['*', true],
    [' * ', true],
    ['"r0", W/"r1"', true],
    ['"r0","r1"', true],
    ['"r0"', false],
    ['W/"r0"', false],
    ['r1', false],
    ['', false],
    ['"r1-identity"', false],
  ])('%s against "r1" → %s', (header, hit) => {
    expect(ifNoneMatchHits(header, '"r1"')).toBe(hit);
  });

  it('no header never matches', () => {
    expect(ifNoneMatchHits(undefined, '"r1"')).toBe(false);
  });
});
