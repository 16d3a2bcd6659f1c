import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondsUntilNextUtcDay, utcDay } from '../../lib/utc-calendar.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { FeedbackApi } from './feedback-api.ts';

/*
 * Volume 1 "Limits": 200 feedback reports per account per UTC day, then 429 with Retry-After
 * until the next UTC day; founder keys (no account) count per key. Exact under concurrency.
 */

let env: TestEnv;
let api: FeedbackApi;

const REPORT = { product: 'roads', category: 'missing_road_closure', description: 'Highway 1 closed at Rogers Pass' };
const LIMIT_BODY = {
  error: 'feedback limit reached: 200 reports per account per day; try again after 00:00 UTC',
  code: 'rate_limited',
};

async function postMany(key: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await api.post('/feedback', REPORT, key)).status);
  return statuses;
}

const reportsOn = async (day: string) =>
  Number((await api.pool.query("SELECT count(*) AS n FROM feedback_reports WHERE (created_at AT TIME ZONE 'UTC')::date = $1", [day])).rows[0].n);

beforeAll(async () => {
  env = await createTestEnv('feedback_limit');
  api = await FeedbackApi.start(env);
});
afterAll(async () => {
  await api?.close();
  await env?.cleanup();
});

describe('Retry-After arithmetic', () => {
  it.each([
    ['2026-03-14T18:30:00.250Z', 19_800],
    ['2026-03-14T00:00:00.000Z', 86_400],
    ['2026-03-14T23:59:59.999Z', 1],
    ['2026-03-14T23:59:59.000Z', 1],
    ['2026-03-14T23:59:58.500Z', 2],
    ['2026-12-31T23:00:00.000Z', 3_600],
  ])('at %s: %i s until the next UTC day', (iso, seconds) => {
    expect(secondsUntilNextUtcDay(Date.parse(iso))).toBe(seconds);
  });

  it('days are UTC days, not local ones', () => {
    expect(utcDay(Date.parse('2026-03-14T23:59:59.999-07:00'))).toBe('2026-03-15');
  });
});

describe('200 reports per account per day', () => {
  it('accepts 200, then answers 429 with Retry-After until 00:00 UTC, for every key of the account', async () => {
    api.setNow('2026-03-14T18:30:00.250Z');
    const first = await api.key({ accountId: 'acme', plan: 'indie' });
    const second = await api.key({ accountId: 'acme' });
    const half = await postMany(first.key, 100);
    const rest = await postMany(second.key, 100);
    expect([...half, ...rest].every((s) => s === 201)).toBe(true);

    for (const key of [first.key, second.key]) {
      const refused = await api.post('/feedback', REPORT, key);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(LIMIT_BODY);
      expect(refused.headers['retry-after']).toBe('19800');
    }
    const place = await api.post('/places/p1/feedback', { category: 'other' }, first.key);
    expect(place.status).toBe(429);
    expect(await reportsOn('2026-03-14')).toBe(200);

    api.setNow('2026-03-14T23:59:59.400Z');
    const lastSecond = await api.post('/feedback', REPORT, first.key);
    expect(lastSecond.status).toBe(429);
    expect(lastSecond.headers['retry-after']).toBe('1');
  });

  it('another account is not affected', async () => {
    api.setNow('2026-03-14T20:00:00.000Z');
    const other = await api.key({ accountId: 'globex', plan: 'growth' });
    expect((await api.post('/feedback', REPORT, other.key)).status).toBe(201);
  });

  it('rolls over at 00:00 UTC: the next day allows 200 again', async () => {
    api.setNow('2026-03-15T00:00:00.000Z');
    const key = await api.key({ accountId: 'acme' });
    const statuses = await postMany(key.key, 200);
    expect(statuses.every((s) => s === 201)).toBe(true);
    const refused = await api.post('/feedback', REPORT, key.key);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('86400');
    const counts = await api.pool.query("SELECT day::text, reports FROM feedback_daily_counts WHERE subject = 'account:acme'");
    expect(counts.rows).toEqual([{ day: '2026-03-15', reports: 200 }]);
  });

  it('founder keys (no account) count per key', async () => {
    api.setNow('2026-03-16T09:15:00.000Z');
    const founder = await api.key();
    const otherFounder = await api.key();
    expect((await postMany(founder.key, 200)).every((s) => s === 201)).toBe(true);
    const refused = await api.post('/feedback', REPORT, founder.key);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(14 * 3600 + 45 * 60));
    expect((await api.post('/feedback', REPORT, otherFounder.key)).status).toBe(201);
  });

  it('is exact under concurrent posts: 260 at once from two keys of one account → 200 stored, 60 refused', async () => {
    api.setNow('2026-03-17T12:00:00.000Z');
    const keys = [await api.key({ accountId: 'initech', plan: 'indie' }), await api.key({ accountId: 'initech' })];
    const answers = await Promise.all(Array.from({ length: 260 }, (_, i) => api.post('/feedback', REPORT, keys[i % 2]!.key)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(200);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
    expect(await reportsOn('2026-03-17')).toBe(200);
    const counts = await api.pool.query("SELECT reports FROM feedback_daily_counts WHERE subject = 'account:initech'");
    expect(counts.rows).toEqual([{ reports: 200 }]);
  });

  it('is not applied to refused (400) requests', async () => {
    api.setNow('2026-03-18T08:00:00.000Z');
    const key = await api.key({ accountId: 'hooli', plan: 'indie' });
    for (let i = 0; i < 5; i++) expect((await api.post('/feedback', { product: 'roads', category: 'other' }, key.key)).status).toBe(400);
    const counts = await api.pool.query("SELECT reports FROM feedback_daily_counts WHERE subject = 'account:hooli'");
    expect(counts.rows).toEqual([]);
  });
});
