import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../engines/feedback/report.ts';
import { submitReport } from '../../io/feedback/store.ts';
import { createPool } from '../../lib/postgres.ts';
import { FeedbackFixture } from '../../schemas/feedback-api.ts';
import { runCanmap, type CliRun } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';

/*
 * `canmap feedback list|show|set-status|export`: the review side of volume 2 "Feedback report
 * status" (new → one review outcome, nothing after) and confirmed reports as fixture files.
 */

let env: TestEnv;
let pool: pg.Pool;
let dir: string;

const canmap = (...args: string[]) => runCanmap(args, env.env);
const json = (run: CliRun) => JSON.parse(run.stdout);
const OUTCOMES = ['confirmed', 'needs-source-fix', 'needs-ranking-fix', 'upstream', 'fixed', 'wont-fix'];

async function seed(body: Record<string, unknown>, at: string): Promise<string> {
  const result = await submitReport(pool, { subject: 'key:cli-test', report: parseReport(body), nowMs: Date.parse(at), perDay: 200 });
  if (!result.accepted) throw new Error('seed refused');
  return result.report.id;
}

beforeAll(async () => {
  env = await createTestEnv('feedback_cli');
  pool = createPool(env.config.databaseUrl, 2);
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-feedback-cli-'));
});
afterAll(async () => {
  await pool?.end();
  await env?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('list and show', () => {
  let geocoding: string;
  let roads: string;
  beforeAll(async () => {
    geocoding = await seed({ product: 'geocoding', category: 'incorrect_address', description: 'civic 123 is on the wrong side' }, '2026-04-01T10:00:00.000Z');
    roads = await seed({ product: 'roads', category: 'missing_road_closure', result_id: 'svc:road:ca-bc:x', include_context: true, context: { q: 'closures' } }, '2026-04-01T11:00:00.000Z');
  });

  it('lists newest first, filtered by status and product', async () => {
    const all = json(await canmap('feedback', 'list', '--json'));
    expect(all.reports.map((r: { id: string }) => r.id).slice(0, 2)).toEqual([roads, geocoding]);
    const onlyRoads = json(await canmap('feedback', 'list', '--product', 'roads', '--status', 'new', '--json'));
    expect(onlyRoads.reports.map((r: { id: string }) => r.id)).toEqual([roads]);
    const human = await canmap('feedback', 'list');
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(geocoding);
    expect(human.stdout).toMatch(/^ID\s+STATUS\s+PRODUCT/);
  });

  it('refuses unknown filters with exit 2', async () => {
    const bad = await canmap('feedback', 'list', '--status', 'open', '--json');
    expect(bad.code).toBe(2);
    expect(json(bad).error).toMatch(/^--status must be one of new, confirmed, needs-source-fix/);
    expect((await canmap('feedback', 'list', '--product', 'weather')).code).toBe(2);
    expect((await canmap('feedback', 'list', '--limit', '0')).code).toBe(2);
    expect((await canmap('feedback', 'frobnicate')).code).toBe(2);
  });

  it('shows one report with its context and the statuses it may move to', async () => {
    const shown = json(await canmap('feedback', 'show', roads, '--json'));
    expect(shown).toMatchObject({
      id: roads, product: 'roads', category: 'missing_road_closure', status: 'new', result_id: 'svc:road:ca-bc:x',
      description: null, context: { q: 'closures' }, created_at: '2026-04-01T11:00:00.000Z', reviewed_at: null,
    });
    expect(shown.next_statuses).toEqual(OUTCOMES);
    const missing = await canmap('feedback', 'show', 'fb_1_00', '--json');
    expect(missing.code).toBe(1);
    expect(json(missing)).toEqual({ error: 'no feedback report fb_1_00 (see canmap feedback list)' });
  });
});

describe('set-status along the state table', () => {
  it.each(OUTCOMES)('new → %s is allowed, recorded with who and when, and nothing moves after it', async (outcome) => {
    const id = await seed({ product: 'places', category: 'other', result_id: `p-${outcome}` }, '2026-04-02T10:00:00.000Z');
    const moved = await canmap('feedback', 'set-status', id, outcome, '--note', 'checked against the source', '--json');
    expect(moved.code).toBe(0);
    expect(json(moved)).toMatchObject({ id, status: outcome, note: 'checked against the source' });
    const { rows } = await pool.query('SELECT status, reviewed_at, reviewed_by FROM feedback_reports WHERE id = $1', [id]);
    expect(rows[0].status).toBe(outcome);
    expect(rows[0].reviewed_at).toBeInstanceOf(Date);
    expect(rows[0].reviewed_by).toMatch(/^cli:/);

    const again = await canmap('feedback', 'set-status', id, outcome === 'fixed' ? 'wont-fix' : 'fixed', '--json');
    expect(again.code).toBe(1);
    expect(json(again).error).toBe(`feedback ${id} is already ${outcome}: only a new report changes status (new → ${OUTCOMES.join(' | ')})`);
    expect((await pool.query('SELECT status FROM feedback_reports WHERE id = $1', [id])).rows[0].status).toBe(outcome);
  });

  it('refuses new → new, unknown statuses (exit 2) and unknown ids (exit 1)', async () => {
    const id = await seed({ product: 'transit', category: 'incorrect_transit_result', description: 'x' }, '2026-04-03T10:00:00.000Z');
    const same = await canmap('feedback', 'set-status', id, 'new', '--json');
    expect(same.code).toBe(1);
    expect(json(same).error).toBe(`feedback ${id} is new: it can move to ${OUTCOMES.join(', ')}, not new`);
    const unknown = await canmap('feedback', 'set-status', id, 'done', '--json');
    expect(unknown.code).toBe(2);
    expect(json(unknown).error).toMatch(/^unknown status "done": one of new, confirmed/);
    const missing = await canmap('feedback', 'set-status', 'fb_9_ff', 'confirmed', '--json');
    expect(missing.code).toBe(1);
    expect((await canmap('feedback', 'set-status', id)).code).toBe(2);
    expect((await pool.query('SELECT status FROM feedback_reports WHERE id = $1', [id])).rows[0].status).toBe('new');
  });
});

describe('export', () => {
  it('writes a confirmed report as a fixture file matching FeedbackFixture', async () => {
    const context = { endpoint: '/geocode/search', params: { q: '24 Sussex Dr, Ottawa' } };
    const id = await seed({ product: 'geocoding', category: 'incorrect_location', description: 'pin in the river', result_id: 'addr:1', include_context: true, context }, '2026-04-04T10:00:00.000Z');
    expect((await canmap('feedback', 'set-status', id, 'confirmed', '--note', 'reproduced')).code).toBe(0);
    const out = path.join(dir, 'nested', 'fixture.json');
    const run = await canmap('feedback', 'export', id, '--out', out, '--json');
    expect(run.code).toBe(0);
    expect(json(run)).toEqual({ id, file: out });
    const fixture = JSON.parse(await readFile(out, 'utf8'));
    expect(Value.Check(FeedbackFixture, fixture)).toBe(true);
    expect(fixture).toMatchObject({
      format: 'canmap-feedback-fixture/1', id, product: 'geocoding', category: 'incorrect_location', description: 'pin in the river',
      result_id: 'addr:1', context, status: 'confirmed', created_at: '2026-04-04T10:00:00.000Z', note: 'reproduced',
    });

    const clash = await canmap('feedback', 'export', id, '--out', out, '--json');
    expect(clash.code).toBe(1);
    expect(json(clash).error).toBe(`${out} exists; pass --force to overwrite it`);
    await writeFile(out, 'old');
    expect((await canmap('feedback', 'export', id, '--out', out, '--force')).code).toBe(0);
    expect(JSON.parse(await readFile(out, 'utf8')).id).toBe(id);
  });

  it('writes to test/fixtures/feedback/<id>.json under the working directory by default', async () => {
    const id = await seed({ product: 'ev', category: 'other', description: 'charger gone' }, '2026-04-05T10:00:00.000Z');
    await canmap('feedback', 'set-status', id, 'confirmed');
    const cwd = await mkdtemp(path.join(dir, 'cwd-'));
    const code = await new Promise<number>((resolve) => {
      execFile(process.execPath, [repoPath('bin/canmap.js'), 'feedback', 'export', id], { cwd, env: { ...process.env, ...env.env } },
        (err) => resolve(err ? Number(err.code ?? 1) : 0));
    });
    expect(code).toBe(0);
    const fixture = JSON.parse(await readFile(path.join(cwd, 'test/fixtures/feedback', `${id}.json`), 'utf8'));
    expect(fixture).toMatchObject({ id, status: 'confirmed', context: null });
  });

  it.each(['new', 'fixed', 'wont-fix'])('refuses a %s report (only confirmed ones become fixtures)', async (status) => {
    const id = await seed({ product: 'names', category: 'wrong_place_name', description: 'x' }, '2026-04-06T10:00:00.000Z');
    if (status !== 'new') await canmap('feedback', 'set-status', id, status);
    const out = path.join(dir, `${id}.json`);
    const run = await canmap('feedback', 'export', id, '--out', out, '--json');
    expect(run.code).toBe(1);
    expect(json(run)).toEqual({ error: `feedback ${id} is ${status}: only a confirmed report can be exported as a fixture` });
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });
});
