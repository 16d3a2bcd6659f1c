import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optimizationBilling } from '../../api/access/optimization-billing-gate.ts';
import type { SolveSlotGate } from '../../api/access/solve-slot-gate.ts';
import { Refusal } from '../../lib/errors.ts';
import { digestOf } from '../../engines/access/optimization-billing-rules.ts';
import { quotaRoom } from '../../io/access/account-allowance.ts';
import { firstBilledWithin24h, pruneBilled, recordBilled } from '../../io/access/optimization-billed.ts';
import { createMeterJournal } from '../../io/access/meter-journal.ts';
import type { RequestShipment as Shipment } from '../../engines/optimization/request-model.ts';
import { type KeyRecord } from '../../lib/keys.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let pool: pg.Pool;

beforeAll(async () => {
  env = await createTestEnv('optimization_billing');
  pool = createPool(env.config.databaseUrl, 20);
});

afterAll(async () => {
  await pool?.end();
  await env?.cleanup();
});

const HOUR = 3_600_000;
const T0 = new Date('2026-11-10T08:00:00Z');
const plus = (ms: number) => new Date(T0.getTime() + ms);
let counter = 0;
const fresh = (n = 1) => Array.from({ length: n }, () => digestOf(`shipment ${counter++} ${Math.random()}`));

describe('the 24-hour free window (Billing 2)', () => {
  it('billed at t0; re-solved at t0+23h free; at t0+25h billed again although re-solved at 23h', async () => {
    const [a] = fresh();
    const payer = 'acme-window';
    expect(await recordBilled(pool, payer, [a!], T0)).toEqual([a]);
    expect(await firstBilledWithin24h(pool, payer, [a!], plus(23 * HOUR))).toEqual(new Set([a]));
    expect(await recordBilled(pool, payer, [a!], plus(23 * HOUR))).toEqual([]);
    // The re-solve at 23h did not extend the window.
    expect(await firstBilledWithin24h(pool, payer, [a!], plus(25 * HOUR))).toEqual(new Set());
    expect(await recordBilled(pool, payer, [a!], plus(25 * HOUR))).toEqual([a]);
    // ...and that billing started a new window.
    expect(await recordBilled(pool, payer, [a!], plus(48 * HOUR))).toEqual([]);
    expect(await recordBilled(pool, payer, [a!], plus(49 * HOUR))).toEqual([a]);
  });

  it('the window is [t0, t0+24h): exactly 24 hours later bills again', async () => {
    const [a] = fresh();
    await recordBilled(pool, 'acme-edge', [a!], T0);
    expect(await recordBilled(pool, 'acme-edge', [a!], plus(24 * HOUR - 1))).toEqual([]);
    expect(await firstBilledWithin24h(pool, 'acme-edge', [a!], plus(24 * HOUR))).toEqual(new Set());
    expect(await recordBilled(pool, 'acme-edge', [a!], plus(24 * HOUR))).toEqual([a]);
  });

  it('per payer: another account solving the same shipment pays for it', async () => {
    const [a] = fresh();
    expect(await recordBilled(pool, 'acme-one', [a!], T0)).toEqual([a]);
    expect(await recordBilled(pool, 'key:key_other', [a!], plus(HOUR))).toEqual([a]);
  });

  it('a batch bills only its new identities, each once even when repeated', async () => {
    const [a, b, c] = fresh(3);
    await recordBilled(pool, 'acme-batch', [a!], T0);
    const billed = await recordBilled(pool, 'acme-batch', [c!, a!, b!, b!], plus(HOUR));
    expect(billed.sort()).toEqual([b!, c!].sort());
    expect(await recordBilled(pool, 'acme-batch', [], T0)).toEqual([]);
    expect(await firstBilledWithin24h(pool, 'acme-batch', [], T0)).toEqual(new Set());
  });

  it('concurrent solves of the same shipments bill each once', async () => {
    const ids = fresh(20);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      recordBilled(pool, 'acme-race', i % 2 ? ids : [...ids].reverse(), plus(i))));
    const all = results.flat();
    expect(all.length).toBe(ids.length);
    expect(new Set(all)).toEqual(new Set(ids));
  });

  it('concurrent re-solves after the window re-bill once', async () => {
    const [a] = fresh();
    await recordBilled(pool, 'acme-race2', [a!], T0);
    const later = plus(30 * HOUR);
    const results = await Promise.all(Array.from({ length: 8 }, () => recordBilled(pool, 'acme-race2', [a!], later)));
    expect(results.flat()).toEqual([a]);
  });

  it('prune deletes only rows whose window has ended', async () => {
    const [old, recent] = fresh(2);
    const now = new Date('2030-01-05T00:00:00Z');
    await recordBilled(pool, 'acme-prune', [old!], new Date(now.getTime() - 25 * HOUR));
    await recordBilled(pool, 'acme-prune', [recent!], new Date(now.getTime() - 23 * HOUR));
    expect(await pruneBilled(pool, now)).toBeGreaterThanOrEqual(1);
    const { rows } = await pool.query('SELECT identity FROM optimization_billed WHERE payer = $1', ['acme-prune']);
    expect(rows.map((r) => r.identity)).toEqual([recent]);
  });
});

describe('quotaRoom (Billing 5) from usage_daily', () => {
  async function useCalls(key: KeyRecord, calls: number, day = '2026-11-03', dev = false): Promise<void> {
    await pool.query(
      `INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls, premium_calls) VALUES ($1, $2, $3, 'optimization', $4, $5, 0)`,
      [day, key.id, key.accountId, dev, calls],
    );
  }

  it('hobby: included minus billable calls this month; dev and other months ignored', async () => {
    const record = await createKey(pool, { accountId: 'room-hobby', plan: 'hobby' });
    await useCalls(record, 9_000);
    await useCalls(record, 500, '2026-11-04', true);
    await useCalls(record, 5_000, '2026-10-30');
    expect(await quotaRoom(pool, record, T0)).toEqual({ room: 1_000, code: 'quota_exceeded' });
  });

  it('indie with a spend cap; growth with cap 0; a key without an account is unlimited', async () => {
    const indie = await createKey(pool, { accountId: 'room-indie', plan: 'indie' });
    await pool.query('UPDATE accounts SET spend_cap = 2.50 WHERE id = $1', ['room-indie']);
    await useCalls(indie, 250_000);
    expect(await quotaRoom(pool, indie, T0)).toEqual({ room: 2_500, code: 'spend_cap' });
    const growth = await createKey(pool, { accountId: 'room-growth', plan: 'growth' });
    await useCalls(growth, 1_999_990);
    expect(await quotaRoom(pool, growth, T0)).toEqual({ room: 10, code: 'spend_cap' });
    const founder = await createKey(pool, {});
    expect((await quotaRoom(pool, founder, T0)).room).toBeNull();
  });

  it('usage reaches the room once the meter journal is flushed', async () => {
    const record = await createKey(pool, { accountId: 'room-journal', plan: 'hobby' });
    const journal = createMeterJournal({ dir: env.config.meterJournalDir, pool, flushEveryMs: 60_000 });
    await new Promise<void>((resolve, reject) => journal.record(
      { day: '2026-11-10', keyId: record.id, accountId: record.accountId, family: 'optimization', dev: false, calls: 7, premium: 0 },
      (err) => (err ? reject(err) : resolve()),
    ));
    await journal.flush();
    expect((await quotaRoom(pool, record, T0)).room).toBe(10_000 - 7);
    await journal.close();
  });
});

describe('the route\'s gate (api/access/optimization-billing.ts)', () => {
  const log = { warn() {} } as never;
  const noSlots: SolveSlotGate = { enter: async () => async () => {} };
  const ship = (label: string, ignore = false): Shipment => ({
    label, pickup: null, delivery: { place: { kind: 'coordinates', latLng: { latitude: 45, longitude: -75 } }, duration: 0, timeWindows: [], tags: [] },
    loadDemands: {}, penaltyCost: 10, ignore, allowedVehicleIndices: null,
  });
  const model = (shipments: Shipment[]) => ({ shipments, vehicles: [], travel: { kind: 'road' } as const });

  it('quota counts new non-ignored shipments (optional ones included); re-solves are free; bills performed ones', async () => {
    const record = await createKey(pool, { accountId: 'gate-hobby', plan: 'hobby' });
    await pool.query(
      `INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls, premium_calls) VALUES ('2026-11-01', $1, $2, 'geocode', false, 9997, 0)`,
      [record.id, record.accountId],
    );
    const billing = optimizationBilling({ db: pool, slots: noSlots, dashboardUrl: 'https://dash.example' });
    const four = model([ship('a'), ship('b'), ship('c'), ship('d')]);
    const refused = await billing.admit(record, four, T0, log).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Refusal);
    expect((refused as Refusal).body()).toMatchObject({ code: 'quota_exceeded', status: 'RESOURCE_EXHAUSTED' });
    // One ignored: three new ones fit the room of 3.
    const three = model([ship('a'), ship('b'), ship('c'), ship('d', true)]);
    const ticket = await billing.admit(record, three, T0, log);
    expect(ticket.newShipments).toBe(3);
    // b was skipped: a and c are billed.
    expect(await ticket.bill([0, 2, 0])).toBe(2);
    await ticket.release();
    // Within 24 h: a and c are free, b is new.
    const again = await billing.admit(record, three, plus(HOUR), log);
    expect(again.newShipments).toBe(1);
    expect(await again.bill([0, 1, 2])).toBe(1);
  });
});
