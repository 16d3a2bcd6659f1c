import type { ServiceDeps } from '../deps.ts';
import { dashboardAccount } from '../../io/access/dashboard.ts';
import { endSession, redeemLoginToken, sessionAccount } from '../../io/access/sessions.ts';
import { monthBounds, monthUsage, UsageInputError } from '../../io/access/usage.ts';
import { errors } from '../../lib/errors.ts';
import { utcMonth } from '../../lib/utc-calendar.ts';
import type { AccountMe, AccountUsage } from '../../schemas/account-api.ts';
import { accountMeView, accountUsageView } from './account-views.ts';

/** A session opened by a login link: the secret for the cookie and how long the cookie lives. */
export interface OpenedSession {
  sessionId: string;
  maxAgeSeconds: number;
}

/**
 * The account dashboard (volume 1, Authentication rule 7) behind /account/*: browser sessions from
 * login links, never API keys. A session secret is the cookie's value (undefined: no cookie).
 */
export interface AccountService {
  /** The account of a live session; 401 invalid_token (sessionRequired) otherwise. */
  signedInAccount(sessionId: string | undefined): Promise<string>;
  /** Whether the secret names a live session (the dashboard page opens on sign-in otherwise). */
  isSignedIn(sessionId: string | undefined): Promise<boolean>;
  /** GET /account/me: the account, its state, this month's usage and its keys. */
  me(accountId: string): Promise<AccountMe>;
  /** GET /account/usage: calls per UTC day and family of `month` (default: this month); 400 bad_request for a month that is none. */
  usage(accountId: string, month: string | undefined): Promise<AccountUsage>;
  /**
   * GET /account/login: redeems a login token once for a new session, ending the browser's
   * previous one; 401 invalid_login_token for an unknown, expired or used token.
   */
  login(token: string | undefined, previousSessionId: string | undefined): Promise<OpenedSession>;
  /** POST /account/logout: ends the session (idempotent). */
  logout(sessionId: string | undefined): Promise<void>;
}

/** The requested month, checked by monthBounds (the schema's pattern alone lets 2026-13 through). */
function checkedMonth(month: string): string {
  try {
    monthBounds(month);
    return month;
  } catch (err) {
    if (err instanceof UsageInputError) throw errors.accountBadRequest(err.message);
    throw err;
  }
}

export function createAccountService({ pool, now }: ServiceDeps): AccountService {
  const liveAccount = (sessionId: string | undefined) =>
    sessionId === undefined ? Promise.resolve(null) : sessionAccount(pool, sessionId, now());
  return {
    async signedInAccount(sessionId) {
      const accountId = await liveAccount(sessionId);
      if (accountId === null) throw errors.sessionRequired();
      return accountId;
    },
    isSignedIn: async (sessionId) => (await liveAccount(sessionId)) !== null,
    async me(accountId) {
      const found = await dashboardAccount(pool, accountId, new Date(now()));
      if (!found) throw errors.sessionRequired();
      return accountMeView(found);
    },
    async usage(accountId, month) {
      const checked = checkedMonth(month ?? utcMonth(now()));
      return accountUsageView(accountId, await monthUsage(pool, { accountId, month: checked }));
    },
    async login(token, previousSessionId) {
      const at = now();
      const session = token ? await redeemLoginToken(pool, token, at) : null;
      if (!session) throw errors.invalidLoginToken();
      if (previousSessionId !== undefined) await endSession(pool, previousSessionId);
      return { sessionId: session.sessionId, maxAgeSeconds: Math.floor((session.expiresAt.getTime() - at) / 1000) };
    },
    async logout(sessionId) {
      if (sessionId !== undefined) await endSession(pool, sessionId);
    },
  };
}
