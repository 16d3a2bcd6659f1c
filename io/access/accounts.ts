import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { validateAccountId } from '../../lib/keys.ts';
import { inTransaction, type Pool } from '../../lib/postgres.ts';
import { PLAN_VOLUME, type Addon, type BlockState, type Plan } from '../../schemas/plans.ts';
import { utcMonth } from '../../lib/utc-calendar.ts';
import { overageCents } from '../../engines/access/enforcement.ts';
import { enforceIn, lockEnforcement, type BlockChange } from './enforcement-run.ts';
import { droppedOrigins } from '../../lib/key-origins.ts';
import { monthUsage } from './usage.ts';

/**
 * Operators' account changes (`canmap accounts`). Plan, add-ons and spend cap take effect on
 * blocks at the next enforcement run (volume 3: "up to five minutes lag"); a payment failure or
 * success is itself the move of volume 3's table, so it re-evaluates the account at once.
 */

export class AccountNotFoundError extends Error {
  constructor(id: string) {
    super(`no account with id ${id} (see canmap keys list)`);
  }
}
export class AccountExistsError extends Error {}

export interface AccountView {
  id: string;
  plan: Plan;
  addons: Addon[];
  /** Currency units. */
  spendCap: number;
  paymentFailedAt: Date | null;
  createdAt: Date;
  block: { state: BlockState; since: Date; month: string } | null;
  keys: { id: string; createdAt: Date; disabledAt: Date | null }[];
}

export interface AccountUsageCounts {
  month: string;
  billable: number;
  dev: number;
  /** Calls that used a premium capability; the dev plan has DEV_PREMIUM_CALLS_PER_MONTH of them. */
  premium: number;
  includedCalls: number;
  /** Currency units; 0 on hobby (no overage, blocked instead). */
  overage: number;
}

interface AccountRow {
  id: string;
  plan: Plan;
  addons: Addon[];
  spend_cap: string;
  payment_failed_at: Date | null;
  created_at: Date;
  state: BlockState | null;
  since: Date | null;
  month: string | null;
}

async function mustExist(db: pg.ClientBase | Pool, id: string): Promise<void> {
  const { rowCount } = await db.query('SELECT 1 FROM accounts WHERE id = $1', [id]);
  if (!rowCount) throw new AccountNotFoundError(id);
}

export async function createAccount(pool: Pool, input: { id?: string; plan?: Plan }): Promise<AccountView> {
  const id = input.id !== undefined ? validateAccountId(input.id) : `acct_${randomBytes(6).toString('hex')}`;
  const { rowCount } = await pool.query(
    `INSERT INTO accounts (id, plan) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`,
    [id, input.plan ?? 'hobby'],
  );
  if (!rowCount) throw new AccountExistsError(`account ${id} already exists`);
  return (await getAccount(pool, id))!;
}

export async function getAccount(pool: Pool, id: string): Promise<AccountView | null> {
  const { rows } = await pool.query<AccountRow>(
    `SELECT a.id, a.plan, a.addons, a.spend_cap, a.payment_failed_at, a.created_at, b.state, b.since, b.month
       FROM accounts a LEFT JOIN account_blocks b ON b.account_id = a.id WHERE a.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  const keys = await pool.query<{ id: string; created_at: Date; disabled_at: Date | null }>(
    'SELECT id, created_at, disabled_at FROM api_keys WHERE account_id = $1 ORDER BY created_at, id',
    [id],
  );
  return {
    id: row.id,
    plan: row.plan,
    addons: row.addons,
    spendCap: Number(row.spend_cap),
    paymentFailedAt: row.payment_failed_at,
    createdAt: row.created_at,
    block: row.state && row.since && row.month ? { state: row.state, since: row.since, month: row.month } : null,
    keys: keys.rows.map((k) => ({ id: k.id, createdAt: k.created_at, disabledAt: k.disabled_at })),
  };
}

export async function accountUsage(pool: Pool, account: AccountView, now: Date): Promise<AccountUsageCounts> {
  const month = utcMonth(now);
  const { totals } = await monthUsage(pool, { accountId: account.id, month });
  return {
    month,
    billable: totals.billable,
    dev: totals.dev,
    premium: totals.premium,
    includedCalls: PLAN_VOLUME[account.plan].includedCalls,
    overage: Math.round(overageCents(account.plan, totals.billable)) / 100,
  };
}

async function update(pool: Pool, id: string, sql: string, params: unknown[]): Promise<void> {
  const { rowCount } = await pool.query(sql, [id, ...params]);
  if (!rowCount) throw new AccountNotFoundError(id);
}

/** A working key of the account whose allowed-origins list holds origins the plan no longer honours. */
export interface KeyOverAllowance {
  keyId: string;
  notHonoured: string[];
}

/**
 * Moves the account to `plan` (always: billing decides the plan). Returns the working keys whose
 * lists exceed the new allowance, with the origins the API stops admitting for them.
 */
export async function setPlan(pool: Pool, id: string, plan: Plan): Promise<KeyOverAllowance[]> {
  await update(pool, id, 'UPDATE accounts SET plan = $2 WHERE id = $1', [plan]);
  const { rows } = await pool.query<{ id: string; allowed_origins: string[] }>(
    `SELECT id, allowed_origins FROM api_keys
      WHERE account_id = $1 AND disabled_at IS NULL AND cardinality(allowed_origins) > 0 ORDER BY created_at, id`,
    [id],
  );
  return rows
    .map((k) => ({ keyId: k.id, notHonoured: droppedOrigins(plan, k.allowed_origins) }))
    .filter((k) => k.notHonoured.length > 0);
}

export const setSpendCap = (pool: Pool, id: string, amount: number) =>
  update(pool, id, 'UPDATE accounts SET spend_cap = $2 WHERE id = $1', [amount]);

/** Adds, then removes (an add-on in both ends up removed); returns the account's add-ons after. */
export async function changeAddons(pool: Pool, id: string, add: Addon[], remove: Addon[]): Promise<Addon[]> {
  const { rows } = await pool.query<{ addons: Addon[] }>(
    `UPDATE accounts SET addons = ARRAY(
        SELECT DISTINCT x FROM unnest(addons || $2::text[]) AS x WHERE NOT x = ANY($3::text[]) ORDER BY x)
      WHERE id = $1 RETURNING addons`,
    [id, add, remove],
  );
  if (!rows[0]) throw new AccountNotFoundError(id);
  return rows[0].addons;
}

/** Records the failure of the last payment (idempotent) and blocks a paid account at once. */
export async function paymentFailed(pool: Pool, id: string, now: Date): Promise<BlockChange[]> {
  return inTransaction(pool, async (client) => {
    await lockEnforcement(client);
    await mustExist(client, id);
    await client.query('UPDATE accounts SET payment_failed_at = COALESCE(payment_failed_at, $2) WHERE id = $1', [id, now]);
    return enforceIn(client, now, id);
  });
}

/** A successful payment: lifts billing_required at once (the account's usage state then applies). */
export async function paymentOk(pool: Pool, id: string, now: Date): Promise<BlockChange[]> {
  return inTransaction(pool, async (client) => {
    await lockEnforcement(client);
    await mustExist(client, id);
    await client.query('UPDATE accounts SET payment_failed_at = NULL WHERE id = $1', [id]);
    return enforceIn(client, now, id);
  });
}
