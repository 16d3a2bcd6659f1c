import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { KeyRecord } from '../../lib/keys.ts';
import { allowanceShortfall, type Allowance } from '../../engines/access/allowance-rule.ts';
import { accountAllowance } from '../../io/access/account-allowance.ts';
import type { Queryable } from '../../io/access/usage.ts';
import { errors } from '../../lib/errors.ts';
import { isUnbilledDevRequest } from './dev-traffic.ts';

export interface AllowanceCheck {
  db: Queryable;
  dashboardUrl: string;
  /** Epoch ms: the UTC month whose calls count. */
  now: number;
}

/**
 * Refuses a request that would bill `calls` calls at once when the account's remaining allowance
 * is below them (POST /geocode/batch, volume 2): the whole request, with the 429 the block would
 * answer (quota_exceeded on hobby, spend_cap on paid plans; Retry-After 3600), so nothing of it is
 * metered. Asks Postgres (one indexed query) only when the calls are billed: not for dev-origin
 * traffic, keys without an account or nothing billable. A failed lookup is a 503, never a pass.
 */
/** The caller of a bulk call: an HTTP request, or a tool call standing for one. */
export interface AllowanceCaller {
  apiKey: KeyRecord | null;
  headers: IncomingHttpHeaders;
  /** The endpoint's URL (its path decides the family). */
  url: string;
  log: FastifyBaseLogger;
}

export async function checkAllowance(request: AllowanceCaller, calls: number, { db, dashboardUrl, now }: AllowanceCheck): Promise<void> {
  const accountId = request.apiKey?.accountId ?? null;
  if (accountId === null || calls === 0 || isUnbilledDevRequest(request)) return;
  let allowance: Allowance;
  try {
    allowance = await accountAllowance(db, accountId, new Date(now));
  } catch (err) {
    request.log.error({ err }, 'answered 503: the account\'s remaining allowance could not be read');
    throw errors.serviceUnavailable('usage metering');
  }
  const short = allowanceShortfall(allowance, calls);
  if (short === 'quota_exceeded') throw errors.quotaExceeded(dashboardUrl);
  if (short === 'spend_cap') throw errors.spendCap(dashboardUrl);
}
