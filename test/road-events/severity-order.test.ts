import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollRoadEvents } from '../../ingest/road-events/poll.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { RoadEventsApi } from '../support/road-events-api-stack.ts';
import { FakePublisher, fixture, open511Page } from '../support/road-events-upstream.ts';

let t: TestEnv;
let pool: Pool;
let upstream: FakePublisher;
let api: RoadEventsApi;

const POLLED_AT = '2026-01-10T16:00:00Z';

/** A publisher event: the spec fixture's SPEC-CLOSED with another id, severity token and update time. */
function event(id: string, severity: string, updated: string): unknown {
  const base = (JSON.parse(fixture('open511-spec-cases.json')) as { events: Record<string, unknown>[] }).events.find((e) => e.id === 'drivebc.ca/SPEC-CLOSED')!;
  return { ...base, id: `drivebc.ca/${id}`, url: `https://api.open511.gov.bc.ca/events/drivebc.ca/${id}`, severity, updated };
}

beforeAll(async () => {
  t = await createTestEnv('road_events_severity_order');
  pool = createPool(t.config.databaseUrl, 2);
  upstream = await FakePublisher.start();
  api = await RoadEventsApi.start(t);
  // Unmapped severities (MODERATE, UNKNOWN, a token Open511 does not define) updated more recently than the mapped ones.
  upstream.script('/events', {
    body: open511Page([
      event('MINOR-OLD', 'MINOR', '2026-01-10T05:00:00-07:00'),
      event('MODERATE-NEWEST', 'MODERATE', '2026-01-10T07:50:00-07:00'),
      event('MAJOR-OLD', 'MAJOR', '2026-01-10T06:00:00-07:00'),
      event('SEVERE', 'SEVERE', '2026-01-10T07:40:00-07:00'),
      event('MINOR-NEW', 'MINOR', '2026-01-10T07:10:00-07:00'),
      event('UNKNOWN-TIE-B', 'UNKNOWN', '2026-01-10T07:30:00-07:00'),
      event('MAJOR-NEW', 'MAJOR', '2026-01-10T07:00:00-07:00'),
      event('MODERATE-TIE-A', 'MODERATE', '2026-01-10T07:30:00-07:00'),
    ]),
  });
  const outcome = await pollRoadEvents(pool, {
    url: upstream.url('/events'),
    http: { timeoutMs: 2_000, attempts: 1, backoffMs: 10, maxRetryAfterMs: 1_000, maxBytes: 1024 * 1024 },
    now: () => new Date(POLLED_AT),
  });
  expect(outcome.outcome).toBe('changed');
  api.refresh();
  api.setNow('2026-01-10T16:00:30Z');
});

afterAll(async () => {
  await api?.close();
  await upstream?.close();
  await pool?.end();
  await t?.cleanup();
});

describe('"most severe first" orders by the severity served', () => {
  it('major, then minor, then unknown (MODERATE, UNKNOWN, unmapped) last; newest update first, then id, within each', async () => {
    const res = await api.get('/incidents');
    expect(res.status).toBe(200);
    const served = (res.body.data as { source_id: string; severity: string }[]).map((e) => [e.source_id.replace('drivebc.ca/', ''), e.severity]);
    expect(served).toEqual([
      ['MAJOR-NEW', 'major'],
      ['MAJOR-OLD', 'major'],
      ['MINOR-NEW', 'minor'],
      ['MINOR-OLD', 'minor'],
      ['MODERATE-NEWEST', 'unknown'],
      ['SEVERE', 'unknown'],
      ['MODERATE-TIE-A', 'unknown'],
      ['UNKNOWN-TIE-B', 'unknown'],
    ]);
  });

  it('a severity filter and limit keep that order', async () => {
    const ids = (body: { data: { source_id: string }[] }) => body.data.map((e) => e.source_id.replace('drivebc.ca/', ''));
    expect(ids((await api.get('/closures?severity=unknown,minor&limit=3')).body)).toEqual(['MINOR-NEW', 'MINOR-OLD', 'MODERATE-NEWEST']);
  });
});
