import { describe, expect, it } from 'vitest';
import { looksLikePid, parsePid, PidParseError } from '../../engines/parcels/pid.ts';
import { QueryError } from '../../lib/query-error.ts';

describe('parsePid', () => {
  it.each(['012-345-678', '012345678', 'PID 012-345-678', 'PID: 012345678', 'pid no. 012-345-678', 'PID # 012 345 678', ' 012 345 678 '])('reads %s', (text) => {
    expect(parsePid(text)).toEqual({ pid: '012345678', formatted: '012-345-678' });
  });

  it.each([
    ['PID 1234', 'PID 1234 has 4 digits; a BC PID has nine, such as 012-345-678'],
    ['PID 12345678', 'PID 12345678 has 8 digits; a BC PID has nine, such as 012-345-678'],
    ['0123456789', 'PID 0123456789 has 10 digits; a BC PID has nine, such as 012-345-678'],
    ['PID 0123-45-678', 'PID 0123-45-678: write it as nine digits, dashes after the third and sixth (012-345-678) or none'],
    ['123-456 Main St', 'not a PID: expected nine digits such as 012-345-678'],
  ])('refuses %s naming the pid', (text, message) => {
    let caught: unknown;
    try {
      parsePid(text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PidParseError);
    expect(caught).toBeInstanceOf(QueryError);
    expect(caught).toMatchObject({ part: 'pid', message });
  });
});

describe('looksLikePid', () => {
  it('is true for nine digits (3-3-3 dashes or none) and anything numeric after a PID prefix', () => {
    for (const text of ['012-345-678', '012345678', 'PID 012-345-678', 'PID: 012345678', 'PID no. 012345678', 'PID 1234', 'pid 12345678']) {
      expect(looksLikePid(text), text).toBe(true);
    }
  });

  it('is false for phone numbers, postal codes, addresses, UWIs and other digit runs', () => {
    for (const text of ['604-555-1234', '(604) 555-1234', 'V2S 7M7', '123-456 Main St', '12345678', '0123456789', '012-3456-78',
      '100/06-32-048-07W5/00', '100143608517W600', 'PID', '']) {
      expect(looksLikePid(text), text).toBe(false);
    }
  });
});
