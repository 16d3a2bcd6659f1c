-- Browser sessions of the account dashboard (GET /account/me, GET /account/usage): a login token
-- from `canmap accounts login-link` is redeemed once for a session cookie. Only the sha256 of a
-- token or session secret is stored, as for API keys. Expired rows are pruned at each login.

CREATE TABLE account_login_tokens (
  token_hash  text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz NULL                -- set by the one redemption a token allows
);
CREATE INDEX account_login_tokens_expires ON account_login_tokens (expires_at);

CREATE TABLE account_sessions (
  session_hash  text PRIMARY KEY,
  account_id    text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL
);
CREATE INDEX account_sessions_expires ON account_sessions (expires_at);
