import { hash } from 'node:crypto';
import type { Addon, BlockState, Plan } from '../schemas/plans.ts';

/**
 * API keys, the pure part: the record the API works with, the key hash and the checks of operator
 * input. Stored in Postgres by io/access/key-store.ts (only the sha256 of a key is ever stored).
 */

/** What the API needs to know about a working key. Founder/integration keys have no account. */
export interface KeyRecord {
  id: string;
  accountId: string | null;
  plan: Plan | null;
  addons: Addon[];
  allowedOrigins: string[];
  /**
   * The account's plan-enforcement block (account_blocks), loaded with the key so checking it
   * costs no query. Absent (or null): not blocked.
   */
  block?: { state: BlockState; since: Date } | null;
  /** The UTC month (`YYYY-MM`) a dev-plan account passed its premium-call ceiling in; absent: not. */
  premiumLimitedMonth?: string;
}

export interface KeyListing extends KeyRecord {
  createdAt: Date;
  disabledAt: Date | null;
}

export class KeyInputError extends Error {}

/** sha256 hex; the one-shot `crypto.hash` is about 2.5× faster than createHash on this hot path. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** An allowed origin is scheme://host[:port] and nothing more; stored in URL-normalized form. */
export function normalizeOrigin(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new KeyInputError(`origin "${input}" is not a URL; expected e.g. https://example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new KeyInputError(`origin "${input}" must use http or https`);
  }
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw new KeyInputError(`origin "${input}" must be scheme://host[:port] without path, query or credentials`);
  }
  return url.origin;
}

export function validateAccountId(id: string): string {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) {
    throw new KeyInputError(`account id "${id}" must be 1-64 letters, digits, '_', '.' or '-'`);
  }
  return id;
}
