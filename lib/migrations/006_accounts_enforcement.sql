-- Spend cap and payment state of accounts, and the plan-enforcement block (volume 3, "Plan
-- enforcement state of a key"). The block is kept per account: every key of an account shares
-- its plan's included volume, its spend cap and its payments, so a key's state is its account's
-- (a key created on a blocked account is blocked too). Keys without an account are never blocked.

ALTER TABLE accounts
  ADD COLUMN spend_cap         numeric(12, 2) NOT NULL DEFAULT 0 CHECK (spend_cap >= 0),
  ADD COLUMN payment_failed_at timestamptz NULL;

CREATE TABLE account_blocks (
  account_id  text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  state       text NOT NULL CHECK (state IN ('quota_exceeded', 'spend_cap', 'billing_required')),
  since       timestamptz NOT NULL,
  -- UTC month (YYYY-MM) whose usage set the block; quota_exceeded and spend_cap end with it.
  month       text NOT NULL CHECK (month ~ '^[0-9]{4}-[0-9]{2}$')
);
