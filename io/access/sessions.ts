import { randomBytes } from 'node:crypto';
import { hashKey } from '../../lib/keys.ts';
import { inTransaction, type Pool } from '../../lib/postgres.ts';
import { AccountNotFoundError } from './accounts.ts';

/**
 * Browser sessions of the account dashboard (lib/migrations/008_account_sessions.sql): an
 * operator issues a login token (`canmap accounts login-link`), the browser redeems it once at
 * GET /account/login for a session secret kept in a cookie. Only sha256 hashes are stored.
 * Times are epoch ms from the caller's clock (the API's `app.now()`), so tests can move time.
 */

/** A login link is meant to be clicked soon after it is sent: 15 minutes. */
export const LOGIN_TOKEN_TTL_MS = 15 * 60_000;
/** A working day: the dashboard asks for a new link after 12 hours. */
export const SESSION_TTL_MS = 12 * 60 * 60_000;

const LOGIN_TOKEN_PREFIX = 'cml_';
const SESSION_PREFIX = 'cms_';

const secret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

export interface LoginToken {
  token: string;
  expiresAt: Date;
}

export interface Session {
  /** The secret for the cookie; shown once, never stored. */
  sessionId: string;
  accountId: string;
  expiresAt: Date;
}

/** Drops expired tokens and sessions; called on every issue and redemption (both are rare). */
async function pruneExpired(db: Pick<Pool, 'query'>, now: Date): Promise<void> {
  await db.query('DELETE FROM account_login_tokens WHERE expires_at <= $1', [now]);
  await db.query('DELETE FROM account_sessions WHERE expires_at <= $1', [now]);
}

export async function issueLoginToken(pool: Pool, accountId: string, now: number, ttlMs = LOGIN_TOKEN_TTL_MS): Promise<LoginToken> {
  const token = secret(LOGIN_TOKEN_PREFIX);
  const createdAt = new Date(now);
  const expiresAt = new Date(now + ttlMs);
  await pruneExpired(pool, createdAt);
  // INSERT ... SELECT inserts nothing for an unknown account instead of failing on the foreign key.
  const { rowCount } = await pool.query(
    `INSERT INTO account_login_tokens (token_hash, account_id, created_at, expires_at)
     SELECT $1, id, $3, $4 FROM accounts WHERE id = $2`,
    [hashKey(token), accountId, createdAt, expiresAt],
  );
  if (!rowCount) throw new AccountNotFoundError(accountId);
  return { token, expiresAt };
}

/**
 * Exchanges a login token for a new session, once: the token is marked used by one conditional
 * UPDATE, so of two concurrent redemptions only one gets a row back. null when the token is
 * unknown, expired or already used (deliberately not told apart).
 */
export async function redeemLoginToken(pool: Pool, token: string, now: number, sessionTtlMs = SESSION_TTL_MS): Promise<Session | null> {
  if (!token.startsWith(LOGIN_TOKEN_PREFIX)) return null;
  const at = new Date(now);
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ account_id: string }>(
      `UPDATE account_login_tokens SET used_at = $2
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
        RETURNING account_id`,
      [hashKey(token), at],
    );
    const accountId = rows[0]?.account_id;
    if (accountId === undefined) return null;
    const sessionId = secret(SESSION_PREFIX);
    const expiresAt = new Date(now + sessionTtlMs);
    await client.query(
      'INSERT INTO account_sessions (session_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [hashKey(sessionId), accountId, at, expiresAt],
    );
    await pruneExpired(client, at);
    return { sessionId, accountId, expiresAt };
  });
}

/** The account of a live session, or null (unknown, ended or expired). */
export async function sessionAccount(pool: Pool, sessionId: string, now: number): Promise<string | null> {
  if (!sessionId.startsWith(SESSION_PREFIX)) return null;
  const { rows } = await pool.query<{ account_id: string }>(
    'SELECT account_id FROM account_sessions WHERE session_hash = $1 AND expires_at > $2',
    [hashKey(sessionId), new Date(now)],
  );
  return rows[0]?.account_id ?? null;
}

/** Ends a session (idempotent: an unknown secret is no error). */
export async function endSession(pool: Pool, sessionId: string): Promise<void> {
  await pool.query('DELETE FROM account_sessions WHERE session_hash = $1', [hashKey(sessionId)]);
}
