import { Type, type Static } from '@sinclair/typebox';
import { ERROR_MESSAGE_KEYWORD, Nullable, stringEnum } from './common.ts';
import { ADDONS, BLOCK_STATES } from './plans.ts';

/**
 * Requests and responses of the account dashboard endpoints (volume 1, Authentication rule 7):
 * browser session, not an API key; not for embedding. The session cookie comes from a login
 * link of `canmap accounts login-link`.
 */

export const ACCOUNT_ERRORS: Readonly<Record<number, string>> = {
  400: 'bad_request: a parameter is malformed; error names it',
  401: 'invalid_token: no session cookie, or its session ended or expired (an API key does not count)',
};

export const LOGIN_ERRORS: Readonly<Record<number, string>> = {
  401: 'invalid_token: the login token is missing, unknown, expired or already used',
};

/** How plans are shown to customers: the hobby plan is `dev`. */
export const PLAN_NAMES = ['dev', 'indie', 'growth'] as const;
export const ACCOUNT_STATES = ['active', ...BLOCK_STATES] as const;

// ---- requests -------------------------------------------------------------------------------

export const LoginQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'the login token of the link (cml_...); works once, expires' })),
});

export const UsageQuery = Type.Object({
  month: Type.Optional(Type.String({
    pattern: '^\\d{4}-\\d{2}$',
    description: 'UTC month YYYY-MM; default the current one',
    [ERROR_MESSAGE_KEYWORD]: 'must be a month YYYY-MM',
  })),
});

// ---- responses ------------------------------------------------------------------------------

export const LoginRedirect = Type.Null({
  description: 'signed in: Set-Cookie canmap_session (HttpOnly, SameSite=Lax, Path=/account, Secure over https); Location /account/ (the account page)',
});

export const LoggedOut = Type.Null({ description: 'the session is ended and its cookie cleared (also when there was none)' });

const calls = (description: string) => Type.Integer({ minimum: 0, description });

export const AccountMe = Type.Object({
  id: Type.String(),
  plan: stringEnum(PLAN_NAMES),
  addons: Type.Array(stringEnum(ADDONS)),
  spend_cap: Type.Number({ description: 'currency units; 0 = no overage allowed' }),
  state: stringEnum(ACCOUNT_STATES, 'active, or the plan-enforcement block refusing its keys'),
  blocked_since: Nullable(Type.String({ description: 'ISO 8601, when state is not active' })),
  payment: stringEnum(['ok', 'failed'] as const),
  payment_failed_at: Nullable(Type.String()),
  created_at: Type.String(),
  usage: Type.Object({
    month: Type.String({ description: 'the current UTC month, YYYY-MM' }),
    calls: calls('billable (non-dev) calls this month'),
    dev_calls: calls('dev-origin calls this month: never billed'),
    premium_calls: calls('calls this month (dev or not) that used a premium capability; the dev plan stops premium requests at 5,000 (usage_limit_reached)'),
    included_calls: calls('calls the plan includes per month'),
    overage: Type.Number({ description: 'currency units so far this month; 0 on dev (blocked instead)' }),
  }),
  keys: Type.Array(Type.Object({
    id: Type.String(),
    allowed_origins: Type.Array(Type.String()),
    created_at: Type.String(),
    disabled_at: Nullable(Type.String()),
  }), { description: 'the account keys, without secrets or hashes' }),
});
export type AccountMe = Static<typeof AccountMe>;

export const AccountUsage = Type.Object({
  account: Type.String(),
  month: Type.String({ description: 'YYYY-MM' }),
  from: Type.String({ description: 'first UTC day of the month' }),
  to: Type.String({ description: 'last UTC day of the month' }),
  rows: Type.Array(Type.Object({
    day: Type.String({ description: 'UTC date YYYY-MM-DD' }),
    family: Type.String({ description: 'endpoint family: geocode, places, transit, road-events, ...' }),
    calls: calls('billable (non-dev) calls'),
    dev_calls: calls('dev-origin calls'),
    premium_calls: calls('calls (dev or not) that used a premium capability'),
  }), { description: 'one row per day and family with calls, by day then family' }),
  totals: Type.Object({
    calls: calls('billable calls of the month'),
    dev_calls: calls('dev-origin calls of the month'),
    premium_calls: calls('premium calls of the month'),
  }),
});
export type AccountUsage = Static<typeof AccountUsage>;
