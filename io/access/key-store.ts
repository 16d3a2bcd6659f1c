import { randomBytes } from 'node:crypto';
import { checkOriginAllowance } from '../../lib/key-origins.ts';
import { hashKey, KeyInputError, normalizeOrigin, validateAccountId, type KeyListing, type KeyRecord } from '../../lib/keys.ts';
import { inTransaction, type Pool } from '../../lib/postgres.ts';
import type { Addon, BlockState, Plan } from '../../schemas/plans.ts';

/** Accounts' API keys in the control plane (api_keys). Only the sha256 of a key is ever stored. */

interface KeyRow {
  id: string;
  account_id: string | null;
  plan: Plan | null;
  addons: Addon[] | null;
  allowed_origins: string[];
  created_at: Date;
  disabled_at: Date | null;
  block_state: BlockState | null;
  block_since: Date | null;
  premium_limited_month: string | null;
}

const KEY_COLUMNS = `k.id, k.account_id, a.plan, a.addons, k.allowed_origins, k.created_at, k.disabled_at,
  b.state AS block_state, b.since AS block_since, a.premium_limited_month`;
const KEY_FROM = `api_keys k LEFT JOIN accounts a ON a.id = k.account_id LEFT JOIN account_blocks b ON b.account_id = k.account_id`;

function toRecord(row: KeyRow): KeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    plan: row.plan,
    addons: row.addons ?? [],
    allowedOrigins: row.allowed_origins,
    // Left out when not blocked, so an unblocked record looks as it did before enforcement existed.
    ...(row.block_state !== null && row.block_since !== null ? { block: { state: row.block_state, since: row.block_since } } : {}),
    ...(row.premium_limited_month ? { premiumLimitedMonth: row.premium_limited_month } : {}),
  };
}

/**
 * The working key with this hash, or null. Unknown and disabled keys both come back null from
 * the same query, so callers cannot (and timing does not) tell them apart.
 */
export async function findActiveKeyByHash(pool: Pool, keyHash: string): Promise<KeyRecord | null> {
  const { rows } = await pool.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM ${KEY_FROM}
      WHERE k.key_hash = $1 AND k.disabled_at IS NULL`,
    [keyHash],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export interface CreateKeyInput {
  /** Existing or new account; null with no plan/addons = founder/integration key. */
  accountId?: string;
  plan?: Plan;
  addons?: Addon[];
  origins?: string[];
}

export interface CreatedKey extends KeyRecord {
  /** The secret itself; shown once, never stored. */
  key: string;
}

/**
 * `accountId` given: that account is created if missing (plan default hobby) and otherwise has
 * its plan/add-ons updated only where given. Plan or add-ons without an account: a new account.
 * Nothing: a key with no account. A list over the allowance of the account's resulting plan
 * (lib/key-origins.ts) is refused (KeyInputError) and nothing is written.
 */
export async function createKey(pool: Pool, input: CreateKeyInput): Promise<CreatedKey> {
  const origins = [...new Set((input.origins ?? []).map(normalizeOrigin))];
  const wantsAccount = input.accountId !== undefined || input.plan !== undefined || input.addons !== undefined;
  const accountId = input.accountId !== undefined
    ? validateAccountId(input.accountId)
    : wantsAccount ? `acct_${randomBytes(6).toString('hex')}` : null;
  const key = `cmk_${randomBytes(32).toString('base64url')}`;
  const id = `key_${randomBytes(6).toString('hex')}`;
  return inTransaction(pool, async (client) => {
    let plan: Plan | null = null;
    if (accountId !== null) {
      const { rows } = await client.query<{ plan: Plan }>(
        `INSERT INTO accounts (id, plan, addons) VALUES ($1, COALESCE($2, 'hobby'), COALESCE($3::text[], '{}'))
         ON CONFLICT (id) DO UPDATE SET plan = COALESCE($2, accounts.plan), addons = COALESCE($3::text[], accounts.addons)
         RETURNING plan`,
        [accountId, input.plan ?? null, input.addons ?? null],
      );
      plan = rows[0]!.plan;
    }
    const refused = checkOriginAllowance(plan, origins);
    if (refused) throw new KeyInputError(refused);
    await client.query(
      `INSERT INTO api_keys (id, key_hash, account_id, allowed_origins) VALUES ($1, $2, $3, $4)`,
      [id, hashKey(key), accountId, origins],
    );
    const { rows } = await client.query<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM ${KEY_FROM} WHERE k.id = $1`,
      [id],
    );
    return { ...toRecord(rows[0]!), key };
  });
}

export async function listKeys(pool: Pool): Promise<KeyListing[]> {
  const { rows } = await pool.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM ${KEY_FROM} ORDER BY k.created_at, k.id`,
  );
  return rows.map((row) => ({ ...toRecord(row), createdAt: row.created_at, disabledAt: row.disabled_at }));
}

/**
 * Replaces a working key's allowed origins (empty = unrestricted), refusing a list over its
 * account's plan allowance (KeyInputError). 'unknown' / 'disabled' when there is no such working key.
 */
export async function setKeyOrigins(
  pool: Pool, id: string, origins: string[],
): Promise<KeyRecord | 'unknown' | 'disabled'> {
  const normalized = [...new Set(origins.map(normalizeOrigin))];
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ disabled_at: Date | null; plan: Plan | null }>(
      `SELECT k.disabled_at, a.plan FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id
        WHERE k.id = $1 FOR UPDATE OF k`,
      [id],
    );
    if (!rows[0]) return 'unknown';
    if (rows[0].disabled_at !== null) return 'disabled';
    const refused = checkOriginAllowance(rows[0].plan, normalized);
    if (refused) throw new KeyInputError(refused);
    await client.query('UPDATE api_keys SET allowed_origins = $2 WHERE id = $1', [id, normalized]);
    const updated = await client.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM ${KEY_FROM} WHERE k.id = $1`, [id]);
    return toRecord(updated.rows[0]!);
  });
}

/** Disables the key (idempotent); null when no key has this id. */
export async function disableKey(pool: Pool, id: string): Promise<{ id: string; disabledAt: Date } | null> {
  const { rows } = await pool.query<{ id: string; disabled_at: Date }>(
    `UPDATE api_keys SET disabled_at = COALESCE(disabled_at, now()) WHERE id = $1 RETURNING id, disabled_at`,
    [id],
  );
  return rows[0] ? { id: rows[0].id, disabledAt: rows[0].disabled_at } : null;
}
