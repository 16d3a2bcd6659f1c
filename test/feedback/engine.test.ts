import { describe, expect, it } from 'vitest';
import { limitSubject } from '../../engines/feedback/daily-limit.ts';
import { newReportId, parseReport } from '../../engines/feedback/report.ts';
import { canMove, nextStatuses } from '../../engines/feedback/status.ts';
import { QueryError } from '../../lib/query-error.ts';
import { FEEDBACK_STATUSES } from '../../schemas/feedback-api.ts';

/* The pure rules of engines/feedback: the state table, ids, the limit's subject, the path override. */

const OUTCOMES = ['confirmed', 'needs-source-fix', 'needs-ranking-fix', 'upstream', 'fixed', 'wont-fix'];

describe('state table (volume 2, "Feedback report status")', () => {
  it.each(FEEDBACK_STATUSES.flatMap((from) => FEEDBACK_STATUSES.map((to) => [from, to] as const)))('%s → %s', (from, to) => {
    expect(canMove(from, to)).toBe(from === 'new' && OUTCOMES.includes(to));
  });

  it('lists the moves of new in the order of the table, and none after a review', () => {
    expect(nextStatuses('new')).toEqual(OUTCOMES);
    for (const s of OUTCOMES) expect(nextStatuses(s as never)).toEqual([]);
  });
});

describe('ids and subjects', () => {
  it('fb_<epoch ms>_<16 hex>', () => {
    const id = newReportId(Date.parse('2026-03-14T18:30:00.250Z'));
    expect(id).toMatch(/^fb_1773513000250_[0-9a-f]{16}$/);
    expect(newReportId(0)).not.toBe(newReportId(0));
  });

  it('counts accounts per account and founder keys per key, without collisions between the two', () => {
    expect(limitSubject({ id: 'key_1', accountId: 'acme' })).toBe('account:acme');
    expect(limitSubject({ id: 'key_1', accountId: null })).toBe('key:key_1');
    expect(limitSubject({ id: 'x', accountId: 'key_1' })).not.toBe(limitSubject({ id: 'key_1', accountId: null }));
  });
});

describe('parseReport', () => {
  it('puts the override in place of the body product and result_id, even invalid ones', () => {
    expect(parseReport({ product: 7, result_id: ['x'], category: 'other' }, { product: 'places', result_id: 'p:1' }))
      .toEqual({ product: 'places', category: 'other', description: null, result_id: 'p:1', context: null });
  });

  it('throws QueryError (the API answers 400) and encodes an accepted context compactly', () => {
    expect(() => parseReport({ product: 'ev', category: 'other' })).toThrow(QueryError);
    const report = parseReport({ product: 'ev', category: 'other', description: 'd', include_context: true, context: { a: [1, { b: 'é' }] } });
    expect(report.context).toBe('{"a":[1,{"b":"é"}]}');
  });
});
