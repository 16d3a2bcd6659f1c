import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { paymentFailed } from '../../io/access/accounts.ts';
import { runEnforcement } from '../../io/access/enforcement-run.ts';
import { issueLoginToken } from '../../io/access/sessions.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { launchChromium, watchPage, type BrowserSession, type PageWatch } from '../support/browser.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

/**
 * The account dashboard page in headless Chromium against the real app on a port, accounts,
 * keys, usage and blocks in Postgres: sign-in, what it shows, the chart drawn from /account/usage.
 */

const BILLING = 'https://billing.canmap.test/billing';
/** web/account/usage-chart.js: the first family's line colour and the included-calls line's. */
const FIRST_FAMILY_RGB = [0x26, 0x80, 0xc2] as const;
const INCLUDED_RGB = [0xe1, 0x2d, 0x39] as const;

interface UsageRow { day: string; key: string; family: string; dev: boolean; calls: number; premium: number }
interface Series { days: string[]; families: Record<string, (number | null)[]>; total: (number | null)[]; included: number[] }
type Outcome = { ok: true } | { ok: false; error: string };

let env: TestEnv;
let pool: pg.Pool;
let redis: Redis;
let app: FastifyInstance;
let origin: string;
let browser: BrowserSession;
const acmeKeys: { id: string }[] = [];

const now = new Date();
const month = now.toISOString().slice(0, 7);
const today = now.toISOString().slice(0, 10);
const firstDay = `${month}-01`;
let acmeRows: UsageRow[];

async function addUsage(account: string, rows: UsageRow[]): Promise<void> {
  for (const r of rows) {
    await pool.query(
      'INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls, premium_calls) VALUES ($1::date, $2, $3, $4, $5, $6, $7)',
      [r.day, r.key, account, r.family, r.dev, r.calls, r.premium],
    );
  }
}

const loginLink = async (account: string) => `${origin}/account/login?token=${(await issueLoginToken(pool, account, Date.now())).token}`;

const readyOf = (page: Page) => page.evaluate(() => (window as unknown as { __canmapDashboard: { ready: Promise<Outcome> } }).__canmapDashboard.ready);
const seriesOf = (page: Page) => page.evaluate(() => (window as unknown as { __canmapDashboard: { series: Series } }).__canmapDashboard.series);

/** Pixels of the chart's canvas within a small distance of `rgb` (antialiased edges differ, a line's middle does not). */
function chartPixelsNear(page: Page, rgb: readonly [number, number, number]): Promise<number> {
  return page.evaluate((target) => {
    const { ctx } = (window as unknown as { __canmapDashboard: { chart: { ctx: CanvasRenderingContext2D } } }).__canmapDashboard.chart;
    const { data } = ctx.getImageData(0, 0, ctx.canvas.width, ctx.canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! > 200 && Math.abs(data[i]! - target[0]) <= 24 && Math.abs(data[i + 1]! - target[1]) <= 24 && Math.abs(data[i + 2]! - target[2]) <= 24) n++;
    }
    return n;
  }, rgb);
}

/** Opens a login link in a new page: it signs in and lands on the dashboard, which is then loaded. */
async function openDashboard(account: string): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage();
  const watch = watchPage(page, origin);
  await page.goto(await loginLink(account));
  expect(page.url()).toBe(`${origin}/account/`);
  expect(await readyOf(page)).toEqual({ ok: true });
  return { page, watch };
}

function expectClean(watch: PageWatch): void {
  expect(watch.failures).toEqual([]);
  // A script or style the CSP refused would show here.
  expect(watch.consoleErrors).toEqual([]);
  expect(watch.pageErrors).toEqual([]);
}

beforeAll(async () => {
  env = await createTestEnv('dashboard_browser', { DASHBOARD_URL: 'https://billing.canmap.test' });
  pool = createPool(env.config.databaseUrl, 4);
  redis = createApiRedis(env.config.redisUrl);
  expect(await redisReady(redis, 5000)).toBe(true);

  acmeKeys.push(await createKey(pool, { accountId: 'acme', plan: 'indie', origins: ['https://maps.acme.example'] }));
  acmeKeys.push(await createKey(pool, { accountId: 'acme', plan: 'indie' }));
  await pool.query(`UPDATE accounts SET addons = '{energy}' WHERE id = 'acme'`);
  // Two keys, so the first day and today stay distinct rows even on the 1st.
  acmeRows = [
    { day: firstDay, key: acmeKeys[0]!.id, family: 'geocode', dev: false, calls: 120, premium: 0 },
    { day: firstDay, key: acmeKeys[0]!.id, family: 'places', dev: false, calls: 30, premium: 0 },
    { day: today, key: acmeKeys[1]!.id, family: 'geocode', dev: false, calls: 75, premium: 5 },
    { day: today, key: acmeKeys[1]!.id, family: 'geocode', dev: true, calls: 40, premium: 0 },
    { day: today, key: acmeKeys[1]!.id, family: 'routing', dev: true, calls: 12, premium: 0 },
  ];
  await addUsage('acme', acmeRows);
  await createKey(pool, { accountId: 'quiet', plan: 'hobby' });

  // Blocked the way production blocks them: the enforcement run, a failed payment.
  const over = await createKey(pool, { accountId: 'overquota', plan: 'hobby' });
  await addUsage('overquota', [{ day: today, key: over.id, family: 'tiles', dev: false, calls: 10_000, premium: 0 }]);
  const capped = await createKey(pool, { accountId: 'capped', plan: 'indie' });
  await addUsage('capped', [{ day: today, key: capped.id, family: 'geocode', dev: false, calls: 260_000, premium: 0 }]);
  await createKey(pool, { accountId: 'unpaid', plan: 'growth' });
  await runEnforcement(pool, { now });
  await paymentFailed(pool, 'unpaid', now);

  const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
  app = await buildApp({ config: env.config, pool, releases, redis, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  redis?.disconnect();
  await pool?.end();
  await env?.cleanup();
});

describe('the account dashboard in headless Chromium', () => {
  it('without a session offers the sign-in form; a pasted login link signs in and shows plan, keys and usage', async () => {
    const page = await browser.newPage();
    const watch = watchPage(page, origin);
    await page.goto(`${origin}/account/`);
    expect(await readyOf(page)).toEqual({ ok: false, error: 'signed out' });
    expect(await page.locator('#signin').isVisible()).toBe(true);
    expect(await page.locator('#dashboard').isVisible()).toBe(false);
    expect(watch.answered.map((a) => a.path)).not.toContain('/account/me');

    await page.locator('#token-input').fill(await loginLink('acme'));
    // The page is already at /account/, so waiting for that URL would not wait for the sign-in's
    // navigation; the signed-in page's first request, /account/me, marks its new document.
    const signedIn = page.waitForResponse((r) => new URL(r.url()).pathname === '/account/me');
    await page.locator('#signin-form button').click();
    await signedIn;
    expect(page.url()).toBe(`${origin}/account/`);
    expect(await readyOf(page)).toEqual({ ok: true });
    expect(await page.locator('#signin').isVisible()).toBe(false);

    expect(await page.locator('#account-id').textContent()).toBe('acme');
    expect(await page.locator('#plan-name').textContent()).toBe('indie');
    expect(await page.locator('#plan-addons').textContent()).toBe('energy');
    expect(await page.locator('#plan-included').textContent()).toBe('250,000');
    expect(await page.locator('#plan-state').textContent()).toBe('active');
    const keys = await page.locator('#keys-body tr').allTextContents();
    expect(keys).toHaveLength(2);
    expect(keys.find((row) => row.includes(acmeKeys[0]!.id))).toContain('https://maps.acme.example');
    expect(keys.find((row) => row.includes(acmeKeys[1]!.id))).toContain('any origin');
    expect(keys.every((row) => row.includes('energy'))).toBe(true);

    expect(await page.locator('#usage-calls').textContent()).toBe('225');
    expect(await page.locator('#usage-dev').textContent()).toBe('52');
    expect(await page.locator('#usage-premium').textContent()).toBe('5');
    expect(await page.locator('#families-body tr').allTextContents()).toEqual(['geocode195405', 'places3000', 'routing0120']);
    expect(await page.locator('#notices .notice').count()).toBe(0);
    expect(watch.answered).toEqual(expect.arrayContaining([{ path: '/account/me', status: 200 }, { path: '/account/usage', status: 200 }]));
    expectClean(watch);
    await page.close();
  });

  it('the chart draws the rows of /account/usage per day and family against the included calls', async () => {
    const { page, watch } = await openDashboard('acme');
    const series = await seriesOf(page);
    const days = series.days;
    expect(days[0]).toBe(firstDay);
    expect(days.at(-1)!.slice(0, 7)).toBe(month);
    const todayIndex = days.indexOf(today);
    // Expected from the rows put in Postgres: billable calls by family and day, nothing drawn after today.
    const expected: Record<string, (number | null)[]> = {};
    for (const family of ['geocode', 'places', 'routing']) expected[family] = days.map((_, i) => (i <= todayIndex ? 0 : null));
    for (const row of acmeRows) if (!row.dev) expected[row.family]![days.indexOf(row.day)]! += row.calls;
    expect(series.families).toEqual(expected);
    expect(series.total[todayIndex]).toBe(225);
    expect(series.total.slice(todayIndex + 1).every((v) => v === null)).toBe(true);
    expect(new Set(series.included)).toEqual(new Set([250_000]));

    expect(await chartPixelsNear(page, FIRST_FAMILY_RGB)).toBeGreaterThan(20);
    expect(await chartPixelsNear(page, INCLUDED_RGB)).toBeGreaterThan(20);
    expectClean(watch);
    await page.close();
  });

  it('a month without calls draws no family line', async () => {
    const { page, watch } = await openDashboard('quiet');
    expect((await seriesOf(page)).families).toEqual({});
    expect(await chartPixelsNear(page, FIRST_FAMILY_RGB)).toBe(0);
    expect(await chartPixelsNear(page, INCLUDED_RGB)).toBeGreaterThan(20);
    expect(await page.locator('#families-body').textContent()).toBe('no calls this month');
    expectClean(watch);
    await page.close();
  });

  it.each([
    ['overquota', 'quota_exceeded', 'Upgrade to a paid plan, or raise your spend cap'],
    ['capped', 'spend_cap', 'Raise the spend cap'],
    ['unpaid', 'billing_required', 'Update your payment method'],
  ])('a blocked account (%s) sees the block %s and what to do', async (account, code, remedy) => {
    const { page, watch } = await openDashboard(account);
    const notice = page.locator(`#notices .notice[data-code="${code}"]`);
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.locator('h2').textContent()).toContain(`429 ${code}`);
    expect(await notice.textContent()).toContain(remedy);
    expect(await notice.locator('a').getAttribute('href')).toBe(BILLING);
    expect(await page.locator('#plan-state').textContent()).toMatch(new RegExp(`^blocked: ${code} since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`));
    expectClean(watch);
    await page.close();
  });

  it('sign out ends the session and leaves the sign-in form', async () => {
    const { page } = await openDashboard('acme');
    await page.locator('#sign-out').click();
    // The page reloads itself: the server answers the sign-in view now.
    await page.waitForSelector('body[data-view="signin"]');
    expect(await readyOf(page)).toEqual({ ok: false, error: 'signed out' });
    expect(await page.locator('#signin').isVisible()).toBe(true);
    expect(await page.locator('#dashboard').isVisible()).toBe(false);
    const me = await page.evaluate(async () => (await fetch('/account/me')).status);
    expect(me).toBe(401);
    await page.close();
  });
});
